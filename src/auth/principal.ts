/**
 * The authenticated principal handlers see (`ctx.principal`) and a session is bound to. Its type
 * lives with the handler context (src/mcp/definition/principal.ts), so the core imports nothing of
 * the resource server; the resource server makes it (authenticate.ts).
 */
export type { Principal } from "../mcp/definition/principal";
