/**
 * A minimal sign-in-free consent page for the demo: the person types the user name to act as
 * (default `demo-user`, no password), so anyone can try the whole OAuth flow locally, and two
 * principals against one server by signing in twice with different names. A real deployment replaces it with its own sign-in
 * (or an upstream identity provider) in front of the same consent steps. The page shows what
 * the MCP guidance asks for (client name, scopes, redirect host, a loopback warning), escapes
 * everything the client chose, and uses the provider's consent handle (one use, bound to this
 * browser by a cookie, no framing).
 */
import { AuthorizationError, CimdFetchError, type ConsentDescription, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { AuthorizeHandler } from "../auth/index";

const DEMO_USER = { id: "demo-user", name: "Demo User" };

/** A user name the demo accepts: short, and plain enough to be a subject in logs and tokens. */
const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(details: ConsentDescription, handle: string): string {
  const name = escapeHtml(details.clientName);
  const origin = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : "This app registered itself; its name is not verified.";
  const scopes = details.scope
    .map((scope) => `<label><input type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> ${escapeHtml(scope)}</label>`)
    .join("<br>");
  return `<!doctype html>
<meta charset="utf-8">
<title>Authorize ${name}</title>
<h1>Allow ${name} to use the mcp-edge demo?</h1>
<p>Demo sign-in, no password: act as any user name (letters, digits, <code>.</code>, <code>_</code>, <code>-</code>; at most 40).</p>
<p>${origin} Access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>
${details.redirectIsLoopback ? "<p><strong>This sends access to an app on your computer.</strong> Continue only if you just started signing in from it.</p>" : ""}
<form method="post">
  <input type="hidden" name="handle" value="${escapeHtml(handle)}">
  <p><label>User name <input name="user" value="${escapeHtml(DEMO_USER.id)}" required maxlength="40" pattern="[A-Za-z0-9][A-Za-z0-9._-]{0,39}"></label></p>
  ${scopes}
  <p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny">Deny</button></p>
</form>`;
}

function plain(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function show(request: Request, oauth: OAuthHelpers): Promise<Response> {
  const authRequest = await oauth.parseAuthRequest(request);
  const details = await oauth.describeConsent(authRequest);
  const consent = await oauth.beginConsent(authRequest);
  consent.headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(page(details, consent.handle), { headers: consent.headers });
}

async function decide(request: Request, oauth: OAuthHelpers): Promise<Response> {
  const form = await request.clone().formData();
  const handle = String(form.get("handle") ?? "");
  if (form.get("decision") !== "approve") {
    const denied = await oauth.denyConsent(request, handle);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  // The user name is the form's (checked before the handle is spent); absent means the default demo user.
  const user = String(form.get("user") ?? DEMO_USER.id).trim();
  if (!USER_NAME.test(user))
    return plain(400, "The user name must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit.");
  const approved = await oauth.approveConsent(request, handle, { scope: form.getAll("scope").map(String) });
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request, // from storage, not from the form
    userId: user,
    metadata: {},
    scope: approved.request.scope,
    props: { userId: user, name: user === DEMO_USER.id ? DEMO_USER.name : user },
  });
  approved.headers.set("Location", redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
}

/** The demo's `/authorize`: GET shows the consent page, POST approves (or denies) as the user name typed there. */
export const demoAuthorize: AuthorizeHandler<unknown> = async (request, _env, oauth) => {
  try {
    if (request.method === "GET") return await show(request, oauth);
    if (request.method === "POST") return await decide(request, oauth);
    return plain(405, "Method Not Allowed");
  } catch (error) {
    // A redirect back to the client only once the library validated client and redirect URI.
    if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) return plain(400, error.description);
    if (error instanceof CimdFetchError) return plain(400, "This app could not be verified.");
    throw error;
  }
};
