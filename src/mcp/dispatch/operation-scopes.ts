/**
 * The scopes one request's operation needs besides the baseline (SEP-2350, 2026-07-28
 * authorization "Scope Challenge Handling"): `auth.toolScopes` / `auth.resourceScopes`, and what the
 * tool, resource, template or prompt declares (`scopes`, fixed or computed from the call). The
 * edge checks them before anything runs or is forwarded, and names the same set in a handler's
 * challenge. Pure: no HTTP here (src/auth/challenge.ts writes the answer).
 */
import type { RequestMessage } from "../../jsonrpc/messages";
import type { ResolvedAuth } from "../../auth/options";
import type { Principal } from "../../auth/principal";
import type { RouteParams } from "../../wire/route-params";
import { isScopeToken, type ScopeCall, type ScopeRequirement } from "../definition/authorization";
import type { McpServer } from "../definition/server";

/** What an operation is (for the refusal's description) and every scope it needs besides the baseline. */
export interface OperationScopes {
  what: string;
  scopes: readonly string[];
}

/** Who asks and where, for requirements computed from the call. */
export interface ScopeAsker<Env> {
  principal: Principal;
  params: RouteParams;
  env: Env;
}

const RESOURCE_METHODS = new Set(["resources/read", "resources/subscribe", "resources/unsubscribe"]);

function argumentsOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The operation's scopes, or undefined for a request that names none (a list, ping, an unknown tool without rules). */
export async function scopesForOperation<Env>(
  request: RequestMessage,
  server: McpServer<Env>,
  auth: Pick<ResolvedAuth, "toolScopes" | "resourceScopes">,
  asker: ScopeAsker<Env>,
): Promise<OperationScopes | undefined> {
  const params = request.params ?? {};
  const base = { method: request.method, arguments: {}, variables: {}, ...asker };
  if (request.method === "tools/call" || request.method === "prompts/get") {
    const name = params.name;
    if (typeof name !== "string") return undefined;
    const tool = request.method === "tools/call";
    const configured = tool ? (auth.toolScopes.get(name) ?? []) : [];
    const requirement = tool ? server.tools.get(name)?.scopes : server.prompts.get(name)?.scopes;
    const call: ScopeCall<Env> = { ...base, name, arguments: argumentsOf(params.arguments) };
    return collect(tool ? `the tool "${name}"` : `the prompt "${name}"`, configured, requirement, call);
  }
  if (!RESOURCE_METHODS.has(request.method) || typeof params.uri !== "string") return undefined;
  const uri = params.uri;
  const configured: string[] = [];
  for (const rule of auth.resourceScopes) {
    if (rule.prefix ? uri.startsWith(rule.pattern) : uri === rule.pattern) configured.push(...rule.scopes);
  }
  const what = `the resource "${uri}"`;
  const fixed = server.resources.get(uri);
  if (fixed) return collect(what, configured, fixed.scopes, { ...base, uri });
  for (const t of server.templates) {
    const variables = t.template.match(uri);
    if (variables) return collect(what, configured, t.scopes, { ...base, uri, variables });
  }
  return collect(what, configured, undefined, { ...base, uri });
}

async function collect<Env>(
  what: string,
  configured: readonly string[],
  requirement: ScopeRequirement<Env> | undefined,
  call: ScopeCall<Env>,
): Promise<OperationScopes | undefined> {
  const declared = typeof requirement === "function" ? await requirement(call) : (requirement ?? []);
  if (!Array.isArray(declared) || !declared.every(isScopeToken)) {
    // A programming error of the server, not the client's: the caller answers it as an internal failure.
    throw new TypeError(`the scopes of ${what} must be a list of OAuth scope tokens (no spaces or quotes)`);
  }
  const scopes = [...new Set([...configured, ...declared])];
  return scopes.length > 0 ? { what, scopes } : undefined;
}
