/**
 * One Worker per public origin, built on the first request that needs it: the issuer, the
 * canonical resource and every URL derived from them follow a variable (deployed: your domain)
 * or, without it, the request's own origin (`wrangler dev` on any port), so the same code runs in
 * both. Origins are kept in a small map; a request for an origin past the bound rebuilds.
 */

export interface PerOriginOptions {
  /** The variable naming the public origin, e.g. "https://mcp.example.com" (default "MCP_PUBLIC_URL"). */
  variable?: string;
}

type Handler<Env> = { fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> };

/** Builds of different origins kept at once; a Host header names the origin without the variable. */
const MAX_ORIGINS = 8;

/**
 * `export default perOrigin<Env>((origin, env) => withAuthorizationServer(…))`: `build` gets the
 * origin without a trailing slash (the variable's value, or the request URL's origin).
 */
export function perOrigin<Env>(
  build: (origin: string, env: Env) => Handler<Env>,
  options: PerOriginOptions = {},
): {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
} {
  const variable = options.variable ?? "MCP_PUBLIC_URL";
  const built = new Map<string, Handler<Env>>();
  return {
    async fetch(request, env, ctx) {
      const configured = (env as Record<string, unknown>)[variable];
      const origin = typeof configured === "string" && configured !== "" ? new URL(configured).origin : new URL(request.url).origin;
      let handler = built.get(origin);
      if (!handler) {
        if (built.size >= MAX_ORIGINS) built.clear();
        handler = build(origin, env);
        built.set(origin, handler);
      }
      return handler.fetch(request, env, ctx);
    },
  };
}
