/**
 * The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): a skill defined once from its
 * SKILL.md and files (frontmatter parsed, sizes and limits checked at definition, SHA-256 digests
 * computed on first use and kept), its files served as `skill://` resources, and the directory
 * index `resources/directory/read` answers from. Only a server that calls defineSkill bundles this.
 */
import { resolveCacheHint, type CacheHint, type ResolvedCacheHint } from "../../mcp/definition/caching";
import { parseFrontmatter, type Frontmatter } from "./frontmatter";
import { directoryRead, getSkill, listSkills, type SkillRegistry } from "./handlers";
import { defineMethod } from "../../mcp/handlers/methods";
import { SKILLS_EXTENSION } from "../../mcp/definition/extensions";
import type { ServerDefinition } from "../../mcp/definition/server";

/** The extension's per-skill limits ("Limits"): files, SKILL.md included, and their total bytes. */
const MAX_SKILL_FILES = 512;
const MAX_SKILL_BYTES = 16 * 1024 * 1024;
const DIRECTORY_MIME = "inode/directory";

/** A file's content: text (a wrangler `Text` module, an inline string) or bytes (a `Data` module). */
export type SkillFileContent = string | Uint8Array | ArrayBuffer;
export type SkillFileInput = SkillFileContent | { content: SkillFileContent; mimeType?: string };

export interface SkillConfig {
  /** The SKILL.md text: frontmatter (name, description, …) then the instructions. */
  skillMd: string;
  /** Supporting files by their path in the skill's directory, e.g. `"references/GUIDE.md"`. */
  files?: Record<string, SkillFileInput>;
  /** An organizational prefix before the skill's name, e.g. `"acme/billing"` → `skill://acme/billing/<name>/SKILL.md`. */
  path?: string;
  /** The caching hint of the skill's entry and files (2026-07-28); default `ttlMs: 0`, private. */
  cache?: CacheHint;
}

/** One file of a skill: where it is served, its bytes' size and (once computed) digest. */
interface SkillFile {
  uri: string;
  name: string;
  content: string | Uint8Array;
  size: number;
  mimeType: string;
}

/** A skill entry's `resources` item. */
interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A skill as defined: register it with `server.skill(definition)`. */
export class SkillDefinition {
  /** The URI of its SKILL.md (the skill's identity in skills/get). */
  readonly uri: string;
  readonly name: string;
  readonly frontmatter: Frontmatter;
  readonly cache: ResolvedCacheHint;
  /** Never conditional: the entry's caching combines as an unconditional definition. */
  readonly enabled = undefined;
  /** SKILL.md first, then the supporting files in the order given. */
  readonly files: readonly SkillFile[];
  private digests: Promise<SkillResource[]> | undefined;

  constructor(config: SkillConfig) {
    if (typeof config?.skillMd !== "string") throw new TypeError("defineSkill: skillMd is the SKILL.md text (a string)");
    const frontmatter = parseFrontmatter(config.skillMd, "defineSkill");
    const name = checkNameAndDescription(frontmatter);
    const what = `skill "${name}"`;
    const root = `skill://${prefixOf(config.path, what)}${name}`;
    this.uri = `${root}/SKILL.md`;
    this.name = name;
    this.frontmatter = frontmatter;
    this.cache = resolveCacheHint(config.cache, what);
    const skillMd: SkillFile = {
      uri: this.uri,
      name,
      content: config.skillMd,
      size: byteLength(config.skillMd),
      mimeType: "text/markdown",
    };
    this.files = [skillMd, ...Object.entries(config.files ?? {}).map(([path, input]) => fileOf(root, path, input, what))];
    checkLimits(this.files, what);
  }

  /** The `Skill` entry of skills/list and skills/get; digests computed on the first call and kept. */
  async entry(): Promise<Record<string, unknown>> {
    this.digests ??= Promise.all(this.files.map(async (f) => ({ uri: f.uri, digest: await sha256(f.content), size: f.size })));
    let resources: SkillResource[];
    try {
      resources = await this.digests;
    } catch (error) {
      this.digests = undefined;
      throw error;
    }
    return { uri: this.uri, frontmatter: this.frontmatter, resources };
  }

  /** What `server.skill(this)` and `server.add(this)` do. */
  addTo<Env>(server: ServerDefinition<Env>): void {
    addSkill(server, this);
  }
}

/** A skill from its SKILL.md and files; everything is checked here, so a bad skill fails at startup, not per request. */
export function defineSkill(config: SkillConfig): SkillDefinition {
  return new SkillDefinition(config);
}

/** Agent Skills naming: 1-64 of a-z 0-9 and hyphens, no hyphen first, last or doubled. */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** RFC 3986 path-segment characters (unreserved, sub-delims, ":" and "@"), which need no encoding in a URI. */
const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;
const REG_NAME = /^[A-Za-z0-9._~!$&'()*+,;=-]+$/;
const RESERVED_METADATA = "io.modelcontextprotocol/";

function checkNameAndDescription(frontmatter: Frontmatter): string {
  const { name, description, metadata } = frontmatter;
  if (typeof name !== "string" || !SKILL_NAME.test(name))
    throw new TypeError(
      `defineSkill: frontmatter "name" must be 1-64 characters of a-z, 0-9 and single hyphens inside (got ${JSON.stringify(name)})`,
    );
  if (typeof description !== "string" || description.length === 0 || description.length > 1024)
    throw new TypeError(`skill "${name}": frontmatter "description" is required, 1-1024 characters`);
  if (typeof metadata === "object") {
    const reserved = Object.keys(metadata).find((k) => k.startsWith(RESERVED_METADATA));
    if (reserved) throw new TypeError(`skill "${name}": metadata key "${reserved}" uses the prefix MCP reserves for its extensions`);
  }
  return name;
}

function prefixOf(path: string | undefined, what: string): string {
  if (path === undefined || path === "") return "";
  const segments = path.split("/");
  if (!REG_NAME.test(segments[0] ?? "") || !segments.every((s) => SEGMENT.test(s) && s !== "." && s !== ".."))
    throw new TypeError(`${what}: path "${path}" must be "/"-separated URI segments without encoding (the first a host-like name)`);
  return `${path}/`;
}

function fileOf(root: string, path: string, input: SkillFileInput, what: string): SkillFile {
  const segments = path.split("/");
  if (path === "SKILL.md" || !segments.every((s) => SEGMENT.test(s) && s !== "." && s !== ".."))
    throw new TypeError(`${what}: file "${path}" must be a relative path of URI segments (no "." or "..", not SKILL.md itself)`);
  const given = typeof input === "object" && input !== null && !(input instanceof Uint8Array) && !(input instanceof ArrayBuffer);
  const { content, mimeType } = given ? input : { content: input, mimeType: undefined };
  if (typeof content !== "string" && !(content instanceof Uint8Array) && !(content instanceof ArrayBuffer))
    throw new TypeError(`${what}: file "${path}" must be a string, a Uint8Array or an ArrayBuffer`);
  const bytes = content instanceof ArrayBuffer ? new Uint8Array(content) : content;
  const name = segments[segments.length - 1] ?? path;
  return {
    uri: `${root}/${path}`,
    name,
    content: bytes,
    size: byteLength(bytes),
    mimeType: mimeType ?? mimeTypeOf(name, typeof bytes === "string"),
  };
}

function checkLimits(files: readonly SkillFile[], what: string): void {
  if (files.length > MAX_SKILL_FILES)
    throw new TypeError(
      `${what}: ${files.length} files; the skills extension's limit is ${MAX_SKILL_FILES} files per skill, SKILL.md included`,
    );
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (total > MAX_SKILL_BYTES)
    throw new TypeError(`${what}: ${total} bytes of files; the skills extension's limit is ${MAX_SKILL_BYTES} bytes (16 MiB) per skill`);
}

function byteLength(content: string | Uint8Array): number {
  return typeof content === "string" ? new TextEncoder().encode(content).byteLength : content.byteLength;
}

async function sha256(content: string | Uint8Array): Promise<string> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "sha256:";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  sh: "text/x-shellscript",
  js: "text/javascript",
  ts: "text/x-typescript",
  html: "text/html",
  csv: "text/csv",
  xml: "application/xml",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  svg: "image/svg+xml",
};

function mimeTypeOf(name: string, text: boolean): string {
  const dot = name.lastIndexOf(".");
  const known = dot > 0 ? MIME_TYPES[name.slice(dot + 1).toLowerCase()] : undefined;
  return known ?? (text ? "text/plain" : "application/octet-stream");
}

const registries = new WeakMap<object, SkillRegistry>();

/**
 * Registers a skill with a server (what `server.skill()` calls): its files as resources, its
 * directories in the index, and on the first skill the extension's declaration and methods.
 */
function addSkill<Env>(server: ServerDefinition<Env>, skill: SkillDefinition): void {
  checkPlace(server, skill);
  const registry = registryOf(server);
  for (const file of skill.files) {
    const description = file.uri === skill.uri ? (skill.frontmatter.description as string) : undefined;
    const read = readOf(file);
    server.resource(file.uri, { name: file.name, description, mimeType: file.mimeType, size: file.size, cache: hintOf(skill.cache) }, read);
    index(registry, file.uri, {
      uri: file.uri,
      name: file.name,
      mimeType: file.mimeType,
      size: file.size,
      ...(description ? { description } : {}),
    });
  }
  registry.skills.set(skill.uri, skill);
}

/**
 * A skill's place is its own: not another's URI, not inside another skill's folder or around one
 * (an enclosing skill's manifest must list a nested skill's files, "Resources"; ship those as the
 * enclosing skill's files instead), no file at a URI another resource or a directory has.
 */
function checkPlace<Env>(server: ServerDefinition<Env>, skill: SkillDefinition): void {
  const existing = registries.get(server);
  const root = skill.uri.slice(0, -"/SKILL.md".length);
  for (const other of existing?.skills.keys() ?? []) {
    const otherRoot = other.slice(0, -"/SKILL.md".length);
    if (other === skill.uri) throw new TypeError(`skill "${skill.uri}" is already defined`);
    if (root.startsWith(`${otherRoot}/`) || otherRoot.startsWith(`${root}/`))
      throw new TypeError(`skill "${skill.uri}" nests with ${other}; put the inner skill's files in the outer skill's files`);
  }
  const taken = skill.files.find((f) => server.resources.has(f.uri) || existing?.directories.has(f.uri));
  if (taken) throw new TypeError(`skill "${skill.name}": ${taken.uri} is already served`);
}

function registryOf<Env>(server: ServerDefinition<Env>): SkillRegistry {
  const known = registries.get(server);
  if (known) return known;
  const registry: SkillRegistry = { skills: new Map(), directories: new Map() };
  registries.set(server, registry);
  // An author's own declaration stands (e.g. `{}` to leave directory reads out); else directory reads are declared.
  if (!server.extensions.has(SKILLS_EXTENSION)) server.extension(SKILLS_EXTENSION, { directoryRead: true });
  // The extension's methods, through the public API like any extension's (no `extension` gate: SEP-2640 lets a
  // client that never declared the extension list and read skills, as the conformance scenario's client does).
  server
    .add(
      defineMethod("skills/list", { description: "Lists the server's skills (SEP-2640)" }, (params, ctx) =>
        listSkills(registry, server, params, ctx),
      ),
    )
    .add(
      defineMethod("skills/get", { description: "One skill's entry by its SKILL.md URI" }, (params, ctx) =>
        getSkill(registry, params, ctx),
      ),
    )
    .add(
      defineMethod("resources/directory/read", { description: "A skill:// directory's children" }, (params) =>
        directoryRead(registry, server, params),
      ),
    );
  return registry;
}

function hintOf(cache: ResolvedCacheHint): CacheHint {
  return { ttlMs: cache.ttlMs, scope: cache.cacheScope };
}

function readOf(file: SkillFile) {
  return () =>
    typeof file.content === "string"
      ? { uri: file.uri, mimeType: file.mimeType, text: file.content }
      : { uri: file.uri, mimeType: file.mimeType, blob: file.content };
}

/** Adds a file and every directory above it, up to the scheme's root, to the directory index. */
function index(registry: SkillRegistry, uri: string, listing: Record<string, unknown>): void {
  let child = uri;
  let entry = listing;
  for (let slash = child.lastIndexOf("/"); slash > "skill://".length; slash = child.lastIndexOf("/")) {
    const parent = child.slice(0, slash);
    const children = registry.directories.get(parent) ?? new Map<string, Record<string, unknown>>();
    registry.directories.set(parent, children);
    if (children.has(child)) return;
    children.set(child, entry);
    child = parent;
    entry = { uri: parent, name: parent.slice(parent.lastIndexOf("/") + 1), mimeType: DIRECTORY_MIME };
  }
}
