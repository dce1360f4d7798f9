/**
 * `resources/list` over its sources: the static resources, then each template with a `list`
 * callback, in registration order, one page at a time (2025-06-18 "Pagination"). The cursor is
 * opaque to clients and names a source and a position in it: an offset (static resources, a
 * template that returned an array) or the template's own cursor (one that pages itself).
 * A page fills from consecutive sources; a template's own page is never split.
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext } from "../definition/context";
import type { ListedResource, ResourceTemplateDefinition, TemplateListPage } from "../definition/definitions";
import { checkIcons } from "../definition/icons";
import { enabledOnly, isEnabled, type McpServer } from "../definition/server";
import { withoutUndefined } from "../definition/definitions";

const LIST = "resources";
/** A template's own cursor travels inside ours: bounded so ours stays a reasonable size. */
const MAX_TEMPLATE_CURSOR = 1024;
/** Sources read for one page at most: templates answering empty pages cannot keep one request looping. */
const MAX_READS_PER_PAGE = 16;

/** Where a page starts: source 0 is the static resources, source i > 0 the i-th template (all templates, listing or not). */
type Position = { source: number; offset: number } | { source: number; cursor: string };

function encode(position: Position): string {
  const inner = "cursor" in position ? { c: position.cursor } : { o: position.offset };
  return btoa(JSON.stringify({ l: LIST, s: position.source, ...inner }))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function invalidCursor(): RpcError {
  return new RpcError(INVALID_PARAMS, "Invalid cursor: not a cursor this server issued for this list");
}

function decode(cursor: unknown, sources: number): Position {
  if (cursor === undefined) return { source: 0, offset: 0 };
  if (typeof cursor !== "string" || cursor.length > 4 * MAX_TEMPLATE_CURSOR) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    throw invalidCursor();
  }
  if (typeof value !== "object" || value === null) throw invalidCursor();
  const { l, s, o, c } = value as Record<string, unknown>;
  if (l !== LIST || typeof s !== "number" || !Number.isSafeInteger(s) || s < 0 || s >= sources) throw invalidCursor();
  if (typeof c === "string" && s > 0) return { source: s, cursor: c };
  if (typeof o === "number" && Number.isSafeInteger(o) && o >= 0) return { source: s, offset: o };
  throw invalidCursor();
}

/** A listed entry as the wire carries it; one that its template could not read is the author's bug. */
function toListing<Env>(t: ResourceTemplateDefinition<Env>, entry: ListedResource): Record<string, unknown> {
  const what = `resource template "${t.template.template}" list`;
  if (typeof entry !== "object" || entry === null || typeof entry.uri !== "string" || typeof entry.name !== "string" || !entry.name)
    throw new Error(`${what}: every entry needs a string uri and name`);
  if (!t.template.match(entry.uri)) throw new Error(`${what}: "${entry.uri}" does not match the template`);
  return withoutUndefined({
    uri: entry.uri,
    name: entry.name,
    title: entry.title,
    description: entry.description,
    mimeType: entry.mimeType ?? t.mimeType,
    size: entry.size,
    icons: entry.icons === undefined ? undefined : checkIcons(entry.icons, what),
    annotations: entry.annotations,
    _meta: entry._meta,
  });
}

/** What one source yields from a position: its entries and where the next page resumes in it, if anywhere. */
interface SourceRead {
  entries: Record<string, unknown>[];
  resume: Position | undefined;
}

async function readSource<Env>(
  server: McpServer<Env>,
  position: Position,
  room: number,
  handlerContext: HandlerContext<Env>,
): Promise<SourceRead> {
  if (position.source === 0) {
    const all = (await enabledOnly(server.resources.values(), handlerContext)).map((r) => r.listing);
    const offset = "offset" in position ? position.offset : 0;
    const end = offset + room;
    return { entries: all.slice(offset, end), resume: end < all.length ? { source: 0, offset: end } : undefined };
  }
  const t = server.templates[position.source - 1];
  if (!t?.list || !(await isEnabled(t, handlerContext))) return { entries: [], resume: undefined };
  const cursor = "cursor" in position ? position.cursor : undefined;
  const answer: ListedResource[] | TemplateListPage = await t.list({ ...handlerContext, cursor, pageSize: room });
  if (Array.isArray(answer)) {
    // The whole list: mcp-edge pages it by offset.
    const offset = "offset" in position ? position.offset : 0;
    const end = offset + room;
    const entries = answer.slice(offset, end).map((entry) => toListing(t, entry));
    return { entries, resume: end < answer.length ? { source: position.source, offset: end } : undefined };
  }
  if (typeof answer !== "object" || answer === null || !Array.isArray(answer.resources))
    throw new Error(`resource template "${t.template.template}" list: return an array of resources or { resources, nextCursor? }`);
  const next = answer.nextCursor;
  if (next !== undefined && (typeof next !== "string" || next.length === 0 || next.length > MAX_TEMPLATE_CURSOR))
    throw new Error(`resource template "${t.template.template}" list: nextCursor must be a string of 1-${MAX_TEMPLATE_CURSOR} characters`);
  const entries = answer.resources.map((entry) => toListing(t, entry));
  return { entries, resume: next === undefined ? undefined : { source: position.source, cursor: next } };
}

/** The first source after `source` that can list (a template with `list`), if any. */
function nextSource<Env>(server: McpServer<Env>, source: number): Position | undefined {
  for (let i = source + 1; i <= server.templates.length; i++) if (server.templates[i - 1]?.list) return { source: i, offset: 0 };
  return undefined;
}

/**
 * One page of `resources/list`: static resources first, then what each listing template names.
 * The page before the end may be followed by an empty last page when a later template lists nothing.
 */
export async function listResourcePage<Env>(server: McpServer<Env>, params: Params, handlerContext: HandlerContext<Env>): Promise<Params> {
  let position: Position | undefined = decode(params.cursor, server.templates.length + 1);
  const page: Record<string, unknown>[] = [];
  for (let reads = 0; position && page.length < server.pageSize && reads < MAX_READS_PER_PAGE; reads++) {
    const read: SourceRead = await readSource(server, position, server.pageSize - page.length, handlerContext);
    page.push(...read.entries);
    position = read.resume ?? nextSource(server, position.source);
  }
  return position ? { resources: page, nextCursor: encode(position) } : { resources: page };
}
