/**
 * Route parameters: the values an endpoint pattern such as `/mcp/:tenant` took from the request's
 * path (`ctx.request.params`), and the route key that binds a session, a task or a listen stream
 * to them, so another route's requests cannot reach it. A literal path has no parameters: its
 * key is "", which is also the key of everything created before routes had one.
 */

export type RouteParams = Readonly<Record<string, string>>;

/** The parameters of a literal path. */
export const NO_PARAMS: RouteParams = Object.freeze({});

/** `name=value&…`, names sorted, both URI-encoded: equal for equal parameters, "" for none. */
export function routeKey(params: RouteParams | undefined): string {
  if (params === undefined) return "";
  const names = Object.keys(params);
  if (names.length === 0) return "";
  return names
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(params[name] ?? "")}`)
    .join("&");
}

/** Parameters read back from JSON (an internal header, a stored record): a flat object of strings, else none. */
export function toRouteParams(value: unknown): RouteParams {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return NO_PARAMS;
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== "string") return NO_PARAMS;
    out[name] = v;
  }
  return Object.freeze(out);
}
