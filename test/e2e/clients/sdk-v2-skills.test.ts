// The Skills extension (SEP-2640) with the official SDK v2 client over real HTTP, as a host would
// load a skill: skills/list (the client has no skills helpers: client.request with a result
// schema), then SKILL.md through readResource, checked against the entry's size and SHA-256
// digest and its frontmatter parsed and compared field by field; a directory read of the skill's
// root. Pinned to 2026-07-28, and in a 2025-11-25 session that declared the extension.
import type { Client } from "@modelcontextprotocol/client";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { withSdkV2Client } from "../helpers/sdk-v2-client";
import { useWorker } from "../helpers/server";

const SKILLS = "io.modelcontextprotocol/skills";
const server = useWorker();

const SkillEntry = z.object({
  uri: z.string(),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const ListSkillsResult = z.looseObject({ skills: z.array(SkillEntry), nextCursor: z.string().optional() });
const DirectoryResult = z.looseObject({ resources: z.array(z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string() })) });

function connected<T>(mode: "legacy" | { pin: string }, use: (client: Client) => Promise<T>): Promise<T> {
  return withSdkV2Client(server.mcpUrl, { name: "e2e-sdk-v2-skills", mode, extensions: [SKILLS] }, use);
}

/** What a host does before it loads a skill: every check of "Integrity and Verification" on SKILL.md. */
async function loadSkill(client: Client): Promise<{ name: string; body: string }> {
  const { skills } = await client.request({ method: "skills/list", params: {} } as never, ListSkillsResult);
  const entry = skills.find((s) => s.uri === "skill://edge-deploy/SKILL.md");
  expect(entry).toBeDefined();
  const listed = entry!.resources.find((r) => r.uri === entry!.uri)!;
  const { contents } = await client.readResource({ uri: entry!.uri });
  const text = (contents[0] as { text: string; mimeType?: string }).text;
  const bytes = new TextEncoder().encode(text);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
  expect({ size: bytes.byteLength, digest: `sha256:${hex}` }).toEqual({
    size: listed.size,
    digest: listed.digest,
  });
  const frontmatter = parseYaml(/^---\r?\n([\s\S]*?)\r?\n---/.exec(text)![1]!);
  expect(frontmatter).toEqual(entry!.frontmatter);
  return { name: entry!.frontmatter.name, body: text };
}

describe("skills with the SDK v2 client", () => {
  it("pinned to 2026-07-28: discovers the extension, loads and verifies a skill, reads its root directory", async () => {
    await connected({ pin: "2026-07-28" }, async (client) => {
      expect(client.getServerCapabilities()?.extensions?.[SKILLS]).toEqual({ directoryRead: true });
      const skill = await loadSkill(client);
      expect(skill.name).toBe("edge-deploy");
      const dir = await client.request(
        { method: "resources/directory/read", params: { uri: "skill://edge-deploy" } } as never,
        DirectoryResult,
      );
      expect(dir.resources.filter((r) => r.mimeType === "inode/directory").map((r) => r.name)).toEqual(["references", "scripts"]);
    });
  });

  it("in a 2025-11-25 session that declared the extension: the same skill, verified the same way", async () => {
    await connected("legacy", async (client) => {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect(client.getServerCapabilities()?.extensions?.[SKILLS]).toEqual({ directoryRead: true });
      expect((await loadSkill(client)).name).toBe("edge-deploy");
      const got = await client.request(
        { method: "skills/get", params: { uri: "skill://mcp-edge/docs/release-notes/SKILL.md" } } as never,
        z.looseObject({ skill: SkillEntry }),
      );
      expect(got.skill.frontmatter.name).toBe("release-notes");
      await expect(
        client.request({ method: "skills/get", params: { uri: "skill://nope/SKILL.md" } } as never, z.looseObject({ skill: SkillEntry })),
      ).rejects.toMatchObject({ code: -32602 });
    });
  });
});
