/**
 * The built-in authorization server's token revocation (RFC 7009, at its token endpoint) ends the
 * principal's streams too (src/platform/end-streams.ts `endStreamsOf`): a revoked refresh token revokes its whole
 * grant, a revoked access token that token, and either way the streams that principal holds end at
 * once instead of at the access token's expiry. The endpoint answers 200 to any token (RFC 7009
 * §2.2), so the streams end only when the token named a real grant of that user before the library
 * revoked it: a made-up `user:grant:x` string ends nobody's streams.
 */
import type { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { endStreamsOf } from "../platform/end-streams";

/** How many pages of a user's grants are read to find the revoked one (a user holds a handful). */
const MAX_GRANT_PAGES = 10;

/**
 * Serves a request to the token endpoint through `provider`; when it is a revocation of a real
 * token, that token's user has their streams ended once the library answered 200, before the
 * answer goes back (a few milliseconds: one call to shard 0, which waits for the shards holding anyone). Without an `MCP_HUB` binding
 * there are no held listen streams nor registered sessions to end, and nothing more is done.
 */
export async function tokenEndpointEndingStreams<Env>(
  provider: OAuthAuthorizationServer<Env>,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> {
  const revoked = (env as { MCP_HUB?: unknown }).MCP_HUB === undefined ? undefined : await revokedUser(provider, request, env);
  const response = await provider.fetch(request, env, ctx);
  if (revoked !== undefined && response.status === 200) {
    // Answered once every shard told its Workers: the client's revocation confirms its streams ended.
    await endStreamsOf(env as object, revoked).catch((error: unknown) => {
      console.error("mcp-edge: the grant was revoked, but ending its user's streams failed; they end at the token's expiry", error);
    });
  }
  return response;
}

/** The user whose real token a revocation request names (`token`, no `grant_type`), or undefined. */
async function revokedUser<Env>(provider: OAuthAuthorizationServer<Env>, request: Request, env: Env): Promise<string | undefined> {
  if (request.method !== "POST" || !request.headers.get("Content-Type")?.startsWith("application/x-www-form-urlencoded")) return undefined;
  const form = await request.clone().formData();
  const token = form.get("token");
  if (typeof token !== "string" || form.has("grant_type")) return undefined;
  // The library's tokens are `<userId>:<grantId>:<secret>`; only a real one counts.
  const [userId, grantId, secret] = token.split(":");
  if (userId === undefined || grantId === undefined || secret === undefined) return undefined;
  const api = provider.getOAuthApi(env);
  // An access token the library still knows (its hash is stored under the grant).
  if ((await api.unwrapToken(token))?.userId === userId) return userId;
  // A refresh token: its grant exists (the library revokes it when the refresh token is the grant's;
  // a string naming the grant came from one of its tokens, so its holder had that user's access).
  return (await hasGrant(api, userId, grantId)) ? userId : undefined;
}

async function hasGrant(
  api: ReturnType<OAuthAuthorizationServer<unknown>["getOAuthApi"]>,
  userId: string,
  grantId: string,
): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_GRANT_PAGES; page++) {
    const grants = await api.listUserGrants(userId, cursor === undefined ? {} : { cursor });
    if (grants.items.some((grant) => grant.id === grantId)) return true;
    cursor = grants.cursor;
    if (cursor === undefined) return false;
  }
  return false;
}
