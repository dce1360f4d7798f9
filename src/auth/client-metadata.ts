/**
 * Client ID Metadata Documents (2026-07-28 basic/authorization "Client Registration"; SEP-991;
 * draft-ietf-oauth-client-id-metadata-document): a client names itself by an HTTPS URL and the
 * built-in authorization server fetches that document. The fetch itself (5 KiB, 10 s, cached per
 * the document's Cache-Control, `client_id` and redirect URIs validated) is the library's; this
 * module is the guard in front of it (CIMD §6 "Server Side Request Forgery"): a client_id whose
 * host is an IP literal, `localhost`, a single label or a special-use local name is refused before
 * anything is fetched. The `global_fetch_strictly_public` compatibility flag (required by the
 * library) then keeps names that resolve to private addresses off the internal network too.
 */

export interface ClientIdMetadataOptions {
  /**
   * Hosts (`host` or `host:port`, lower case) the guard lets through although they look local:
   * for tests and local development only, never in production.
   */
  insecureAllowHosts?: string[];
}

/** RFC 6761 / 6762 / 8375 special-use names and ICANN's private-use `.internal`: never a client's public home. */
const LOCAL_SUFFIXES = ["localhost", "local", "localdomain", "internal", "home.arpa", "lan", "intranet"];

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Why a client_id URL's host may not be fetched, or undefined when it may (hostname as the URL parser normalised it). */
function hostProblem(url: URL, allow: ReadonlySet<string>): string | undefined {
  const host = url.hostname.toLowerCase();
  if (allow.has(url.host.toLowerCase()) || allow.has(host)) return undefined;
  // The URL parser turns 2130706433, 0x7f.1 and 127.1 into 127.0.0.1, so one pattern covers them.
  if (IPV4.test(host) || host.startsWith("[")) return "a client_id URL must name a host, not an IP address";
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  if (!name.includes(".")) return "a client_id URL must name a public host";
  if (LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`)))
    return "a client_id URL must name a public host, not a local one";
  return undefined;
}

/**
 * The URL of a client_id the library may resolve as a metadata document: any https URL. (The
 * library's own test also takes a bare "/" path, and the URL parser forgives case and stray
 * whitespace, so this stays wider than the library's rule rather than narrower.)
 */
function metadataUrlOf(clientId: string): URL | undefined {
  try {
    const url = new URL(clientId);
    return url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function payloadOf(jwt: string): Record<string, unknown> | undefined {
  const part = jwt.split(".")[1];
  if (!part) return undefined;
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Every client_id a token request names: the form's, HTTP Basic's user, a client assertion's `iss`/`sub` (RFC 7523). */
async function tokenRequestClientIds(request: Request): Promise<string[]> {
  const ids: string[] = [];
  const basic = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(request.headers.get("Authorization") ?? "");
  if (basic) {
    try {
      const user = atob(basic[1] as string).split(":")[0] as string;
      ids.push(decodeURIComponent(user));
    } catch {
      // Not ours to judge: the library answers a malformed header.
    }
  }
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) return ids;
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return ids;
  }
  const clientId = form.get("client_id");
  if (typeof clientId === "string") ids.push(clientId);
  const assertion = form.get("client_assertion");
  const claims = typeof assertion === "string" ? payloadOf(assertion) : undefined;
  for (const claim of ["iss", "sub"]) if (typeof claims?.[claim] === "string") ids.push(claims[claim] as string);
  return ids;
}

function oauthError(status: number, error: string, description: string): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/**
 * The refusal for a request whose client_id is a metadata URL on a host that may not be fetched,
 * or undefined. `/authorize`: 400 invalid_client without a redirect (the client is unknown);
 * the token endpoint: 401 invalid_client (RFC 6749 §5.2).
 */
export async function refuseUnsafeClientId(
  request: Request,
  endpoint: "authorize" | "token",
  allow: ReadonlySet<string>,
): Promise<Response | undefined> {
  const ids = endpoint === "authorize" ? [new URL(request.url).searchParams.get("client_id") ?? ""] : await tokenRequestClientIds(request);
  for (const id of ids) {
    const url = metadataUrlOf(id);
    const problem = url && hostProblem(url, allow);
    if (problem) return oauthError(endpoint === "authorize" ? 400 : 401, "invalid_client", problem);
  }
  return undefined;
}
