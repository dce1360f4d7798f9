/**
 * defineSkill and server.skill at definition time (src/features/skills/skills.ts, src/features/skills/frontmatter.ts): the
 * frontmatter reader agrees with a full YAML parser (the `yaml` package the conformance suite and
 * many hosts use) on what it accepts and refuses the rest with the line and the fix; the
 * extension's limits are refused naming the limit; digests are computed once; skills/list and
 * directory reads page with the server's pageSize; an author's own `{}` declaration leaves
 * resources/directory/read out. Served through dispatchRequest in both eras.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse as parseYaml } from "yaml";
import { INVALID_PARAMS, METHOD_NOT_FOUND } from "../../src/jsonrpc/errors";
import type { ResponseMessage } from "../../src/jsonrpc/messages";
import { dispatchContext, dispatchRequest } from "../../src/mcp/dispatch/dispatch";
import type { RequestEnvelope } from "../../src/mcp/era-2026/envelope";
import { parseFrontmatter } from "../../src/features/skills/frontmatter";
import { defineServer, type ServerDefinition } from "../../src/mcp/definition/server";
import { defineSkill } from "../../src/features/skills/skills";

const skillMd = (name: string, extra = "") => `---\nname: ${name}\ndescription: Does ${name} things\n${extra}---\n\n# ${name}\n`;

let nextId = 1;
function dispatch(server: ServerDefinition, method: string, params: Record<string, unknown> = {}, era: "2025" | "2026" = "2026") {
  const envelope = { protocolVersion: "2026-07-28", clientCapabilities: {}, clientInfo: { name: "t", version: "1" } } as RequestEnvelope;
  const lane =
    era === "2026"
      ? ({ era, envelope, supportedVersions: ["2026-07-28"] } as const)
      : ({ era, sessions: false, session: undefined, protocolVersion: "2025-11-25" } as const);
  const request = { kind: "request" as const, id: nextId++, method, params };
  return dispatchRequest(request, dispatchContext(server, {}, lane), new AbortController());
}

function resultOf(response: ResponseMessage): Record<string, unknown> {
  if (response.kind !== "result") throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
  return response.result;
}

describe("the frontmatter reader", () => {
  const accepted = [
    "name: a-skill\ndescription: Plain text, with commas, (parens) and a 3D model",
    "name: a-skill\ndescription: \"Quoted: with \\\"escapes\\\" \\u00e9 and \\\\ a \\n newline\"\nlicense: 'It''s MIT' # a comment",
    '# leading comment\nname: a-skill\ndescription: x # trailing comment\n\nmetadata:\n  author: someone\n  version: "1.0"\n  io.example/key: value',
    "name: a-skill\ndescription: ends with a colon inside:word\nallowed-tools: Bash(git:*) Read",
    "name: a-skill\ndescription: ünïcödé — and emoji 🚀\ncompatibility: Requires Node 22.12+",
  ];
  for (const [i, block] of accepted.entries()) {
    it(`reads accepted block ${i + 1} exactly as a YAML parser does`, () => {
      expect(parseFrontmatter(`---\n${block}\n---\nbody`, "t")).toEqual(parseYaml(block));
    });
  }

  const refused: [string, RegExp][] = [
    [
      "name: a\ndescription: x\nversion: 1.0",
      /line 4: YAML reads the value of "version" \(1\.0\) as something other than a string; quote it/,
    ],
    ["name: a\ndescription: yes", /"description" \(yes\) as something other than a string/],
    ["name: a\ndescription: 2024-01-31", /as something other than a string/],
    ["name: a\ndescription: a: b", /contains ": "; quote it/],
    ["name: a\ndescription: >\n  folded", /starts with ">"/],
    ["name: a\ndescription:\n  - item", /is not a "key: value" line/],
    ["name: a\ndescription: first\n  continued", /line 4: "continued" is not a "key: value" line/],
    ["name: a\nname: b\ndescription: x", /"name" appears twice/],
    ['name: a\ndescription: "unterminated', /does not end on its line/],
    ["name: a\ndescription: x\nmetadata:", /"metadata:" has no value/],
    ["name: a\ndescription: x\nmetadata:\n  deep:\n    deeper: z", /line 5: "deep" has no value/],
    ["name: a\n\tdescription: x", /indent with spaces, not tabs/],
  ];
  for (const [block, message] of refused) {
    it(`refuses ${JSON.stringify(block.split("\n").at(-1))} with the line and the fix`, () => {
      expect(() => parseFrontmatter(`---\n${block}\n---\n`, "t")).toThrow(message);
    });
  }

  it("needs the frontmatter block first", () => {
    expect(() => parseFrontmatter("# no frontmatter\n", "t")).toThrow(/must begin with YAML frontmatter/);
  });
});

describe("defineSkill", () => {
  it("checks the name (Agent Skills rules), the description and reserved metadata keys", () => {
    expect(() => defineSkill({ skillMd: skillMd("Bad_Name") })).toThrow(/"name" must be 1-64 characters/);
    expect(() => defineSkill({ skillMd: skillMd("double--hyphen") })).toThrow(/"name" must be/);
    expect(() => defineSkill({ skillMd: "---\nname: ok\n---\n" })).toThrow(/"description" is required/);
    expect(() => defineSkill({ skillMd: skillMd("ok", "metadata:\n  io.modelcontextprotocol/x: value\n") })).toThrow(/reserves/);
  });

  it("checks file paths and the organizational prefix", () => {
    expect(() => defineSkill({ skillMd: skillMd("ok"), files: { "../escape.md": "x" } })).toThrow(/file "..\/escape.md"/);
    expect(() => defineSkill({ skillMd: skillMd("ok"), files: { "a b.md": "x" } })).toThrow(/URI segments/);
    expect(() => defineSkill({ skillMd: skillMd("ok"), path: "bad host/x" })).toThrow(/path "bad host\/x"/);
    expect(defineSkill({ skillMd: skillMd("refunds"), path: "acme/billing" }).uri).toBe("skill://acme/billing/refunds/SKILL.md");
  });

  it("refuses more than 512 files (SKILL.md included), naming the limit", () => {
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f/${i}.txt`, "x"]));
    expect(defineSkill({ skillMd: skillMd("ok"), files: files(511) }).files).toHaveLength(512);
    expect(() => defineSkill({ skillMd: skillMd("ok"), files: files(512) })).toThrow(
      'skill "ok": 513 files; the skills extension\'s limit is 512 files per skill, SKILL.md included',
    );
  });

  it("refuses more than 16 MiB of files in bytes (UTF-8), naming the limit", () => {
    const md = skillMd("big");
    const room = 16 * 1024 * 1024 - new TextEncoder().encode(md).byteLength;
    expect(defineSkill({ skillMd: md, files: { "data.bin": new Uint8Array(room) } }).files).toHaveLength(2);
    // One two-byte character more than fits.
    expect(() => defineSkill({ skillMd: md, files: { "data.txt": `${"x".repeat(room - 1)}é` } })).toThrow(
      /16777217 bytes of files; the skills extension's limit is 16777216 bytes \(16 MiB\) per skill/,
    );
  });

  it("refuses a second skill at the same URI, a nested one, a taken URI and a value that is not a defined skill", () => {
    const server = defineServer({ name: "s", version: "1" }).skill(defineSkill({ skillMd: skillMd("one") }));
    expect(() => server.skill(defineSkill({ skillMd: skillMd("one") }))).toThrow(/already defined/);
    expect(() => server.skill({ skillMd: "x" } as never)).toThrow(TypeError);
    // Nesting: the enclosing skill's manifest would have to list the inner one's files.
    expect(() => server.skill(defineSkill({ skillMd: skillMd("inner"), path: "one" }))).toThrow(/nests with skill:\/\/one\/SKILL.md/);
    server.resource("skill://two/SKILL.md", { name: "taken" }, (uri) => ({ uri, text: "x" }));
    expect(() => server.skill(defineSkill({ skillMd: skillMd("two") }))).toThrow("skill://two/SKILL.md is already served");
  });
});

describe("serving defined skills", () => {
  afterEach(() => vi.restoreAllMocks());

  it("computes the digests once, on the first entry asked for, and serves bytes as a blob", async () => {
    const server = defineServer({ name: "s", version: "1" });
    server.skill(defineSkill({ skillMd: skillMd("bytes"), files: { "assets/logo.png": new Uint8Array([137, 80, 78, 71]) } }));
    const digest = vi.spyOn(crypto.subtle, "digest");
    const first = resultOf(await dispatch(server, "skills/list"));
    expect(digest).toHaveBeenCalledTimes(2);
    const again = resultOf(await dispatch(server, "skills/get", { uri: "skill://bytes/SKILL.md" }));
    expect(digest).toHaveBeenCalledTimes(2);
    expect((again.skill as { resources: unknown[] }).resources).toEqual((first.skills as { resources: unknown[] }[])[0]?.resources);
    const png = resultOf(await dispatch(server, "resources/read", { uri: "skill://bytes/assets/logo.png" }));
    expect(png.contents).toEqual([{ uri: "skill://bytes/assets/logo.png", mimeType: "image/png", blob: "iVBORw==" }]);
  });

  it("pages skills/list and directory reads with the server's pageSize, each entry whole", async () => {
    const server = defineServer({ name: "s", version: "1", pageSize: 2 });
    for (const name of ["a", "b", "c"])
      server.skill(defineSkill({ skillMd: skillMd(name), files: { "x.md": "1", "y.md": "2", "z.md": "3" } }));
    const first = resultOf(await dispatch(server, "skills/list"));
    expect((first.skills as { uri: string }[]).map((s) => s.uri)).toEqual(["skill://a/SKILL.md", "skill://b/SKILL.md"]);
    expect((first.skills as { resources: unknown[] }[])[0]?.resources).toHaveLength(4);
    const second = resultOf(await dispatch(server, "skills/list", { cursor: first.nextCursor }));
    expect({ uris: (second.skills as { uri: string }[]).map((s) => s.uri), next: second.nextCursor }).toEqual({
      uris: ["skill://c/SKILL.md"],
      next: undefined,
    });
    const dir = resultOf(await dispatch(server, "resources/directory/read", { uri: "skill://a" }));
    const rest = resultOf(await dispatch(server, "resources/directory/read", { uri: "skill://a", cursor: dir.nextCursor }));
    expect([...(dir.resources as { uri: string }[]), ...(rest.resources as { uri: string }[])].map((r) => r.uri)).toEqual([
      "skill://a/SKILL.md",
      "skill://a/x.md",
      "skill://a/y.md",
      "skill://a/z.md",
    ]);
    const bad = await dispatch(server, "skills/list", { cursor: "not-a-cursor" });
    expect(bad.kind === "error" && bad.error.code).toBe(INVALID_PARAMS);
  });

  it("answers in both eras, with the caching hint only on 2026-07-28", async () => {
    const server = defineServer({ name: "s", version: "1" });
    server.skill(defineSkill({ skillMd: skillMd("cached"), cache: { ttlMs: 60_000, scope: "public" } }));
    const modern = resultOf(await dispatch(server, "skills/list", {}, "2026"));
    expect({ ttlMs: modern.ttlMs, cacheScope: modern.cacheScope, resultType: modern.resultType }).toEqual({
      ttlMs: 60_000,
      cacheScope: "public",
      resultType: "complete",
    });
    const legacy = resultOf(await dispatch(server, "skills/list", {}, "2025"));
    expect(Object.keys(legacy)).toEqual(["skills"]);
  });

  it("leaves resources/directory/read out when the author declared the extension without directoryRead", async () => {
    const server = defineServer({ name: "s", version: "1", extensions: { "io.modelcontextprotocol/skills": {} } });
    server.skill(defineSkill({ skillMd: skillMd("plain") }));
    const refused = await dispatch(server, "resources/directory/read", { uri: "skill://plain" });
    expect(refused.kind === "error" && refused.error.code).toBe(METHOD_NOT_FOUND);
    expect(resultOf(await dispatch(server, "skills/list")).skills).toHaveLength(1);
  });

  it("has no skills methods on a server without skills, even in an isolate where another server has some", async () => {
    const server = defineServer({ name: "s", version: "1" });
    const refused = await dispatch(server, "skills/list");
    expect(refused.kind === "error" && refused.error.code).toBe(METHOD_NOT_FOUND);
    expect(server.extensions.has("io.modelcontextprotocol/skills")).toBe(false);
  });
});
