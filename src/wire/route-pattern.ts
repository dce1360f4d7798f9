/**
 * Endpoint paths with parameters (`path: "/mcp/:tenant"`): checked once when createMcpEdge runs
 * (a bad pattern throws, naming the problem), matched per request. A `:name` segment takes one
 * whole, non-empty path segment, percent-decoded; other segments match exactly. A literal path
 * matches only itself (the router finds it by one map lookup), with or without a trailing slash.
 */
import { NO_PARAMS, type RouteParams } from "./route-params";

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
    if (colon > 0) return `has ":" inside the segment "${segment}": a parameter is a whole segment, e.g. "/mcp/:tenant"`;
    const name = segment.slice(1);
    if (name === "") return 'has ":" without a parameter name (e.g. "/mcp/:tenant")';
    const modifier = /^(.+)([?+])$/.exec(name);
    if (modifier) return modifierProblem(modifier[1] as string, modifier[2] as "?" | "+", path);
    if (!NAME.test(name) || name === "__proto__")
      return `has the parameter ":${name}": names are letters, digits and "_", not starting with a digit`;
    if (names.has(name)) return `names the parameter ":${name}" twice`;
    names.add(name);
  }
  return undefined;
}

/** A parameter with a modifier (`:tenant?`, `:path+`): what to write instead. */
function modifierProblem(name: string, modifier: "?" | "+", path: string): string {
  const fixed = path.replace(`:${name}${modifier}`, `:${name}`);
  if (modifier === "?") {
    return `has the optional parameter ":${name}?": optional parameters are not supported. Use "${fixed}" and give the URL without it a value of its own (e.g. "${path.replace(`:${name}?`, "default")}" for the default ${name})`;
  }
  return `has the repeated parameter ":${name}+": a parameter takes exactly one segment. Name each segment ("${fixed}/:more"), or use "${fixed}" with values that encode "/" as %2F`;
}

/** Checks and compiles one path option; throws a TypeError naming the option and the problem. */
export function compileRoute(option: string, path: string): RoutePattern {
  if (typeof path !== "string") throw new TypeError(`mcp-edge option ${option} must be a string path, e.g. "/mcp"`);
  const problem = problemOf(path);
  if (problem) throw new TypeError(`mcp-edge option ${option} "${path}" ${problem}`);
  const segments = trimmed(path).split("/");
  // Per segment: the parameter's name, or undefined for a literal segment.
  const params = segments.map((s) => (s.startsWith(":") ? s.slice(1) : undefined));
  const names = params.filter((n): n is string => n !== undefined);
  if (names.length === 0) return literalRoute(path);
  return {
    path,
    names,
    match(pathname) {
      const parts = trimmed(pathname).split("/");
      if (parts.length !== segments.length) return undefined;
      const values: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as string;
        const name = params[i];
        if (name === undefined) {
          if (part !== segments[i]) return undefined;
        } else {
          if (part === "") return undefined;
          const value = decoded(part);
          if (value === undefined) return undefined;
          values[name] = value;
        }
      }
      return Object.freeze(values);
    },
    fill(values) {
      return segments.map((s, i) => (params[i] === undefined ? s : encodeURIComponent(values[params[i] as string] ?? ""))).join("/");
    },
  };
}

/** A segment percent-decoded (most have nothing to decode), or undefined when it does not decode. */
function decoded(part: string): string | undefined {
  if (!part.includes("%")) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function literalRoute(path: string): RoutePattern {
  const bare = trimmed(path);
  return {
    path,
    names: [],
    match(pathname) {
      return pathname === path || trimmed(pathname) === bare ? NO_PARAMS : undefined;
    },
    fill() {
      return path;
    },
  };
}

/** The path without its trailing slashes ("/" stays "/"). */
function trimmed(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}
