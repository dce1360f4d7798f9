/**
 * skills/list, skills/get and resources/directory/read (the Skills extension, SEP-2640), over the
 * registry src/features/skills/skills.ts builds at definition. Entries carry the caching hint on 2026-07-28.
 */
import { INVALID_PARAMS, METHOD_NOT_FOUND, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { combineHints, NO_CACHE, type ResolvedCacheHint } from "../../mcp/definition/caching";
import type { HandlerContext } from "../../mcp/definition/context";
import type { ServerDefinition } from "../../mcp/definition/server";
import { SKILLS_EXTENSION } from "../../mcp/definition/extensions";
import { paginate } from "../../mcp/handlers/pagination";
import { checkUriLength } from "../../mcp/handlers/resources";

/** What the handlers read: the skills by their SKILL.md URI, and every directory's direct children. */
export interface SkillRegistry {
  skills: Map<string, { entry(): Promise<Record<string, unknown>>; cache: ResolvedCacheHint; enabled: undefined }>;
  directories: Map<string, Map<string, Record<string, unknown>>>;
}

function requireUri(params: Params, method: string): string {
  if (typeof params.uri !== "string" || params.uri.length === 0) throw new RpcError(INVALID_PARAMS, `${method} needs a string "uri"`);
  return checkUriLength(params.uri, method);
}

function withHint<Env>(result: Params, registry: SkillRegistry, handlerContext: HandlerContext<Env>): Params {
  if (handlerContext.era !== "2026") return result;
  // The least cacheable of the skills' hints.
  const { ttlMs, cacheScope } = combineHints(registry.skills.values(), NO_CACHE);
  return { ...result, ttlMs, cacheScope };
}

export async function listSkills<Env>(
  registry: SkillRegistry,
  server: ServerDefinition<Env>,
  params: Params,
  handlerContext: HandlerContext<Env>,
): Promise<Params> {
  const { page, nextCursor } = paginate("skills", [...registry.skills.values()], params, server.pageSize);
  const skills = await Promise.all(page.map((s) => s.entry()));
  return withHint(nextCursor ? { skills, nextCursor } : { skills }, registry, handlerContext);
}

export async function getSkill<Env>(registry: SkillRegistry, params: Params, handlerContext: HandlerContext<Env>): Promise<Params> {
  const uri = requireUri(params, "skills/get");
  const skill = registry.skills.get(uri);
  if (!skill) throw new RpcError(INVALID_PARAMS, `No skill is served at ${uri}`, { uri });
  return withHint({ skill: await skill.entry() }, registry, handlerContext);
}

export async function directoryRead<Env>(registry: SkillRegistry, server: ServerDefinition<Env>, params: Params): Promise<Params> {
  // Only a server that declares directoryRead serves the method (an author may declare the extension as `{}`).
  if (server.extensions.get(SKILLS_EXTENSION)?.settings.directoryRead !== true)
    throw new RpcError(METHOD_NOT_FOUND, "Method not found: resources/directory/read");
  const uri = requireUri(params, "resources/directory/read");
  const children = registry.directories.get(uri);
  if (!children) {
    const what = server.resources.has(uri) ? `${uri} is not a directory resource` : `No directory is served at ${uri}`;
    throw new RpcError(INVALID_PARAMS, what, { uri });
  }
  const { page, nextCursor } = paginate("directory", [...children.values()], params, server.pageSize);
  return nextCursor ? { resources: page, nextCursor } : { resources: page };
}
