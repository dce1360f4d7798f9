/**
 * Endpoint paths with parameters (`path: "/mcp/:tenant"`): checked once when createMcpEdge runs
 * (a bad pattern throws, naming the problem), matched per request. A `:name` segment takes one
 * whole, non-empty path segment, percent-decoded; other segments match exactly. A literal path
 * matches only itself (the router finds it by one map lookup), with or without a trailing slash.
 */
import { NO_PARAMS, type RouteParams } from "../mcp/route-params";

export interface RoutePattern {
  /** The pattern as given, e.g. "/mcp/:tenant". */
  readonly path: string;
  /** Its parameter names, in order; none for a literal path. */
  readonly names: readonly string[];
  /** The parameters of `pathname` when it is this route, else undefined. */
  match(pathname: string): RouteParams | undefined;
  /** The path of one route: each `:name` replaced by its (URI-encoded) value. */
  fill(params: RouteParams): string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function problemOf(path: string): string | undefined {
  if (!path.startsWith("/")) return 'must start with "/"';
  if (path.includes("*")) return 'has a wildcard ("*"): only whole-segment parameters are supported, e.g. "/mcp/:tenant"';
  const names = new Set<string>();
  for (const segment of path.split("/")) {
    const colon = segment.indexOf(":");
    if (colon === -1) continue;
    if (colon > 0) return `has a parameter inside the segment "${segment}": a parameter is a whole segment, e.g. "/mcp/:tenant"`;
    const name = segment.slice(1);
    if (name === "") return 'has ":" without a parameter name (e.g. "/mcp/:tenant")';
    if (!NAME.test(name) || name === "__proto__")
      return `has the parameter ":${name}": names are letters, digits and "_", not starting with a digit (no "?" or "+" modifiers)`;
    if (names.has(name)) return `names the parameter ":${name}" twice`;
    names.add(name);
  }
  return undefined;
}

/** Checks and compiles one path option; throws a TypeError naming the option and the problem. */
export function compileRoute(option: string, path: string): RoutePattern {
  if (typeof path !== "string") throw new TypeError(`mcp-edge option ${option} must be a string path, e.g. "/mcp"`);
  const problem = problemOf(path);
  if (problem) throw new TypeError(`mcp-edge option ${option} "${path}" ${problem}`);
  const segments = trimmed(path).split("/");
  const names = segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1));
  if (names.length === 0) return literalRoute(path);
  return {
    path,
    names,
    match(pathname) {
      const parts = trimmed(pathname).split("/");
      if (parts.length !== segments.length) return undefined;
      const params: Record<string, string> = {};
      for (const [i, segment] of segments.entries()) {
        const part = parts[i] as string;
        if (!segment.startsWith(":")) {
          if (part !== segment) return undefined;
          continue;
        }
        if (part === "") return undefined;
        try {
          params[segment.slice(1)] = decodeURIComponent(part);
        } catch {
          return undefined;
        }
      }
      return Object.freeze(params);
    },
    fill(params) {
      return segments.map((s) => (s.startsWith(":") ? encodeURIComponent(params[s.slice(1)] ?? "") : s)).join("/");
    },
  };
}

function literalRoute(path: string): RoutePattern {
  const bare = trimmed(path);
  return {
    path,
    names: [],
    match: (pathname) => (pathname === path || trimmed(pathname) === bare ? NO_PARAMS : undefined),
    fill: () => path,
  };
}

/** The path without its trailing slashes ("/" stays "/"). */
function trimmed(path: string): string {
  const end = path.replace(/\/+$/, "");
  return end === "" ? "/" : end;
}
