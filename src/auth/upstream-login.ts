/**
 * The browser's side of upstream sign-in, served by the built-in authorization server: `/authorize`
 * shows a consent page (which client, which redirect host: the confused-deputy guard of the MCP
 * security guidance), then sends the browser to the provider with PKCE and a one-use `state` bound
 * to this browser by a cookie (workers-oauth-provider's beginUpstream); the callback exchanges the
 * code, asks `identify` who signed in, stores the grant in the user object and completes the MCP
 * client's authorization. Every refusal is a short page naming what to do; no upstream text is shown.
 */
import {
  AuthorizationError,
  CimdFetchError,
  authorizationErrorRedirect,
  type ConsentDescription,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { requestTokens } from "../platform/upstream-token";
import { encodeBase64url } from "./base64url";
import type { Upstream, UpstreamIdentity } from "./upstream";

/** What the upstream's pages need from the authorization server serving them. */
export interface LoginSite {
  /** The issuer (this Worker's origin): the callback URL is on it. */
  issuer: string;
}

/** Saved with the approved request until the callback (never sent to the browser). */
interface LoginData {
  verifier: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function plain(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

function consentPage(details: ConsentDescription, handle: string, title: string): string {
  const name = escapeHtml(details.clientName);
  const origin = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : "This app registered itself; its name is not verified.";
  return `<!doctype html>
<meta charset="utf-8">
<title>Authorize ${name}</title>
<h1>Allow ${name} to act with your ${escapeHtml(title)} account?</h1>
<p>${origin} Access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>
${details.redirectIsLoopback ? "<p><strong>This sends access to an app on your computer.</strong> Continue only if you just started signing in from it.</p>" : ""}
<form method="post">
  <input type="hidden" name="handle" value="${escapeHtml(handle)}">
  <button name="decision" value="approve">Continue to ${escapeHtml(title)}</button>
  <button name="decision" value="deny">Deny</button>
</form>`;
}

/** `/authorize`: GET shows the consent page; POST approves (→ the provider) or denies (→ back to the client). */
export async function serveUpstreamAuthorize<Env>(
  upstream: Upstream<Env>,
  site: LoginSite,
  request: Request,
  context: { env: Env; oauth: OAuthHelpers },
): Promise<Response> {
  const { env, oauth } = context;
  try {
    if (request.method === "GET") {
      const authRequest = await oauth.parseAuthRequest(request);
      const consent = await oauth.beginConsent(authRequest);
      const html = consentPage(await oauth.describeConsent(authRequest), consent.handle, upstream.title);
      consent.headers.set("Content-Type", "text/html; charset=utf-8");
      return new Response(html, { headers: consent.headers });
    }
    if (request.method !== "POST") return plain(405, "Method Not Allowed");
    const form = await request.clone().formData();
    const handle = String(form.get("handle") ?? "");
    if (form.get("decision") !== "approve") {
      const denied = await oauth.denyConsent(request, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const approved = await oauth.approveConsent(request, handle);
    const verifier = randomToken();
    const data: LoginData = { verifier };
    const transaction = await oauth.beginUpstream(approved.request, { data, headers: approved.headers });
    const target = new URL(upstream.setting("authorizeUrl", env));
    target.searchParams.set("client_id", upstream.setting("clientId", env));
    target.searchParams.set("redirect_uri", callbackUrl(upstream, site));
    target.searchParams.set("response_type", "code");
    target.searchParams.set("state", transaction.state);
    target.searchParams.set("code_challenge", await challengeOf(verifier));
    target.searchParams.set("code_challenge_method", "S256");
    if (upstream.options.scopes?.length) target.searchParams.set("scope", upstream.options.scopes.join(" "));
    transaction.headers.set("Location", target.href);
    return new Response(null, { status: 302, headers: transaction.headers });
  } catch (error) {
    return refusal(error);
  }
}

/** The provider's redirect back: state, code exchange, who signed in, the grant stored, the MCP client's code. */
export async function serveUpstreamCallback<Env>(
  upstream: Upstream<Env>,
  site: LoginSite,
  request: Request,
  context: { env: Env; oauth: OAuthHelpers },
): Promise<Response> {
  const { env, oauth } = context;
  let resumed: Awaited<ReturnType<OAuthHelpers["finishUpstream"]>>;
  try {
    // One use, bound to this browser's cookie: a forged, replayed or stale state ends here.
    resumed = await oauth.finishUpstream<LoginData>(request);
  } catch (error) {
    return refusal(error);
  }
  const params = new URL(request.url).searchParams;
  const code = params.get("code");
  if (params.has("error") || !code) {
    // The user declined at the provider (or it sent no code): the client hears access_denied.
    const location = authorizationErrorRedirect(resumed.request, "access_denied", `${upstream.title} sign-in did not complete`);
    resumed.headers.set("Location", location);
    return new Response(null, { status: 302, headers: resumed.headers });
  }
  const data = resumed.data as LoginData;
  const answer = await requestTokens(
    {
      tokenUrl: upstream.setting("tokenUrl", env),
      clientId: upstream.setting("clientId", env),
      clientSecret: upstream.setting("clientSecret", env),
    },
    { grant_type: "authorization_code", code, redirect_uri: callbackUrl(upstream, site), code_verifier: data.verifier },
  );
  switch (answer.kind) {
    case "refused":
      return plain(
        400,
        `${upstream.title} refused the sign-in (${answer.error}): the code was already used or expired. Start again from your MCP client.`,
      );
    case "broken":
      console.error(`mcp-edge upstream "${upstream.name}": code exchange failed: ${answer.detail}`);
      return plain(502, `${upstream.title} did not answer the sign-in as expected (${answer.detail}). Try again later.`);
    case "tokens":
      break;
  }
  const identity = await identifyOrRefuse(upstream, answer.grant, env);
  if (identity instanceof Response) return identity;
  await upstream.save(env, identity.userId, answer.grant);
  const { redirectTo } = await oauth.completeAuthorization({
    request: resumed.request,
    userId: identity.userId,
    metadata: { upstream: upstream.name },
    scope: resumed.request.scope,
    props: identity.props ?? {},
  });
  resumed.headers.set("Location", redirectTo);
  return new Response(null, { status: 302, headers: resumed.headers });
}

async function identifyOrRefuse<Env>(
  upstream: Upstream<Env>,
  grant: { accessToken: string; scope?: string },
  env: Env,
): Promise<UpstreamIdentity | Response> {
  let identity: UpstreamIdentity;
  try {
    identity = await upstream.options.identify({ accessToken: grant.accessToken, scope: grant.scope }, { env });
  } catch (error) {
    console.error(`mcp-edge upstream "${upstream.name}": identify failed`, error);
    return plain(502, `Could not read who signed in at ${upstream.title}. Try again later.`);
  }
  if (typeof identity?.userId !== "string" || identity.userId.length === 0 || identity.userId.includes(":")) {
    console.error(`mcp-edge upstream "${upstream.name}": identify returned no usable userId (a non-empty string without ":")`);
    return plain(502, `Could not read who signed in at ${upstream.title}. Try again later.`);
  }
  return identity;
}

/** An error of the provider library as a page: its redirect back to the client when it made one safe. */
function refusal(error: unknown): Response {
  if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
  if (error instanceof AuthorizationError)
    return plain(400, `This sign-in cannot continue: ${error.description}. Start again from your MCP client.`);
  if (error instanceof CimdFetchError) return plain(400, "This app could not be verified.");
  throw error;
}

function callbackUrl<Env>(upstream: Upstream<Env>, site: LoginSite): string {
  return new URL(upstream.callbackPath, site.issuer).href;
}

function randomToken(): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)). */
async function challengeOf(verifier: string): Promise<string> {
  return encodeBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}
