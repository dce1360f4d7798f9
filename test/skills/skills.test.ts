/**
 * The Skills extension (SEP-2640) over real HTTP against the demo's two skills (src/demo/skills.ts):
 * the declaration (server/discover; 2025-11-25 initialize when the client declares it),
 * skills/list and skills/get with digests a host can verify, SKILL.md through resources/read,
 * and resources/directory/read, on 2026-07-28 and in a 2025-era session.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { INVALID_PARAMS } from "../../src/jsonrpc/errors";
import { expect2026Error, expectComplete, post2026 } from "../helpers/era-2026";
import { call, initializeParams, openSession, post } from "../helpers/mcp";

const SKILLS = "io.modelcontextprotocol/skills";
const EDGE_DEPLOY = "skill://edge-deploy/SKILL.md";
const RELEASE_NOTES = "skill://mcp-edge/docs/release-notes/SKILL.md";

type Entry = { uri: string; frontmatter: Record<string, unknown>; resources: { uri: string; digest: string; size: number }[] };

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function read2026(uri: string): Promise<{ uri: string; mimeType: string; text: string }> {
  const result = await expectComplete(await post2026("resources/read", { uri }));
  return (result.contents as { uri: string; mimeType: string; text: string }[])[0] as never;
}

// The first request loads the demo Worker: outside any one test's time budget.
beforeAll(async () => {
  await post2026("server/discover");
}, 30_000);

describe("skills on 2026-07-28", () => {
  it("declares the extension with directoryRead beside the resources capability in server/discover", async () => {
    const { capabilities } = (await expectComplete(await post2026("server/discover"))) as {
      capabilities: { extensions: Record<string, unknown>; resources?: unknown };
    };
    expect(capabilities.extensions[SKILLS]).toEqual({ directoryRead: true });
    expect(capabilities.resources).toBeDefined();
  });

  it("lists both skills with their frontmatter and a manifest whose digests and sizes match what resources/read returns", async () => {
    const result = await expectComplete(await post2026("skills/list"));
    expect({ ttlMs: result.ttlMs, cacheScope: result.cacheScope, nextCursor: result.nextCursor }).toEqual({
      ttlMs: 300_000,
      cacheScope: "public",
      nextCursor: undefined,
    });
    const skills = result.skills as Entry[];
    expect(skills.map((s) => s.uri)).toEqual([EDGE_DEPLOY, RELEASE_NOTES]);
    const [deploy, notes] = skills as [Entry, Entry];
    expect(deploy.frontmatter).toEqual({
      name: "edge-deploy",
      description: "Deploy an MCP server to Cloudflare Workers with its Durable Object bindings and migrations",
      license: "MIT",
      metadata: { author: "mcp-edge", version: "1.0" },
    });
    expect(notes.frontmatter.description).toBe("Write release notes in the style of this project's CHANGELOG: Added, Changed, Fixed");
    expect(deploy.resources.map((r) => r.uri)).toEqual([
      EDGE_DEPLOY,
      "skill://edge-deploy/references/bindings.md",
      "skill://edge-deploy/scripts/check.sh",
    ]);
    for (const resource of [...deploy.resources, ...notes.resources]) {
      const { text } = await read2026(resource.uri);
      expect({ uri: resource.uri, digest: resource.digest, size: resource.size }).toEqual({
        uri: resource.uri,
        digest: await sha256(text),
        size: new TextEncoder().encode(text).byteLength,
      });
    }
  });

  it("serves SKILL.md as text/markdown, listed in resources/list with the frontmatter's name and description", async () => {
    const file = await read2026(EDGE_DEPLOY);
    expect(file.mimeType).toBe("text/markdown");
    expect(file.text.startsWith("---\nname: edge-deploy\n")).toBe(true);
    const listed = (await expectComplete(await post2026("resources/list"))).resources as Record<string, unknown>[];
    expect(listed.find((r) => r.uri === EDGE_DEPLOY)).toEqual(
      expect.objectContaining({
        name: "edge-deploy",
        description: "Deploy an MCP server to Cloudflare Workers with its Durable Object bindings and migrations",
        mimeType: "text/markdown",
      }),
    );
  });

  it("gets one skill with the list's entry and the caching hint, and no cursor", async () => {
    const listed = ((await expectComplete(await post2026("skills/list"))).skills as Entry[])[1];
    const got = await expectComplete(await post2026("skills/get", { uri: RELEASE_NOTES }));
    expect(got.skill).toEqual(listed);
    expect({ ttlMs: got.ttlMs, cacheScope: got.cacheScope, nextCursor: got.nextCursor }).toEqual({
      ttlMs: 300_000,
      cacheScope: "public",
      nextCursor: undefined,
    });
  });

  it("answers -32602 naming the URI for a skill it does not serve, a file that is not a SKILL.md, or no uri", async () => {
    const unknown = await expect2026Error(await post2026("skills/get", { uri: "skill://nope/SKILL.md" }), 200, INVALID_PARAMS);
    expect(unknown.error?.message).toBe("No skill is served at skill://nope/SKILL.md");
    await expect2026Error(await post2026("skills/get", { uri: "skill://edge-deploy/references/bindings.md" }), 200, INVALID_PARAMS);
    await expect2026Error(await post2026("skills/get", {}), 200, INVALID_PARAMS);
  });

  it("reads directories: the skill's root with its subdirectories as inode/directory, a subdirectory, a prefix", async () => {
    const root = await expectComplete(await post2026("resources/directory/read", { uri: "skill://edge-deploy" }));
    expect(root.resources).toEqual([
      // SKILL.md as resources/list shows it: named and described from the frontmatter.
      expect.objectContaining({ uri: EDGE_DEPLOY, name: "edge-deploy", mimeType: "text/markdown" }),
      { uri: "skill://edge-deploy/references", name: "references", mimeType: "inode/directory" },
      { uri: "skill://edge-deploy/scripts", name: "scripts", mimeType: "inode/directory" },
    ]);
    const references = await expectComplete(await post2026("resources/directory/read", { uri: "skill://edge-deploy/references" }));
    expect(references.resources).toEqual([
      expect.objectContaining({ uri: "skill://edge-deploy/references/bindings.md", name: "bindings.md", mimeType: "text/markdown" }),
    ]);
    const prefix = await expectComplete(await post2026("resources/directory/read", { uri: "skill://mcp-edge/docs" }));
    expect(prefix.resources).toEqual([{ uri: "skill://mcp-edge/docs/release-notes", name: "release-notes", mimeType: "inode/directory" }]);
  });

  it("refuses a directory read of a file or of nothing with -32602", async () => {
    const file = await expect2026Error(await post2026("resources/directory/read", { uri: EDGE_DEPLOY }), 200, INVALID_PARAMS);
    expect(file.error?.message).toBe(`${EDGE_DEPLOY} is not a directory resource`);
    await expect2026Error(await post2026("resources/directory/read", { uri: "skill://elsewhere" }), 200, INVALID_PARAMS);
  });
});

describe("skills in a 2025-era session", () => {
  it("declares the extension in initialize only to a 2025-11-25 client that declares it", async () => {
    const capsOf = async (capabilities: Record<string, unknown>) => {
      const res = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25", capabilities) });
      return ((await res.json()) as { result: { capabilities: { extensions?: Record<string, unknown> } } }).result.capabilities;
    };
    expect((await capsOf({ extensions: { [SKILLS]: {} } })).extensions).toEqual({ [SKILLS]: { directoryRead: true } });
    expect((await capsOf({})).extensions?.[SKILLS]).toBeUndefined();
  });

  it("lists, gets, reads and reads directories without the 2026 caching fields", async () => {
    const { sessionId, version } = await openSession("2025-11-25", { extensions: { [SKILLS]: {} } });
    const list = (await call(sessionId, version, "skills/list")).result as Record<string, unknown>;
    expect((list.skills as Entry[]).map((s) => s.uri)).toEqual([EDGE_DEPLOY, RELEASE_NOTES]);
    expect(list.ttlMs).toBeUndefined();
    const got = (await call(sessionId, version, "skills/get", { uri: EDGE_DEPLOY })).result as { skill: Entry };
    expect(got.skill.frontmatter.name).toBe("edge-deploy");
    const unknown = (await call(sessionId, version, "skills/get", { uri: "skill://nope/SKILL.md" })).error as { code: number };
    expect(unknown.code).toBe(INVALID_PARAMS);
    const read = (await call(sessionId, version, "resources/read", { uri: EDGE_DEPLOY })).result as { contents: { text: string }[] };
    expect(await sha256(read.contents[0]?.text ?? "")).toBe(got.skill.resources[0]?.digest);
    const dir = (await call(sessionId, version, "resources/directory/read", { uri: "skill://edge-deploy/scripts" })).result as {
      resources: unknown[];
    };
    expect(dir.resources).toEqual([
      expect.objectContaining({ uri: "skill://edge-deploy/scripts/check.sh", mimeType: "text/x-shellscript" }),
    ]);
  });
});
