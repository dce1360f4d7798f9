/**
 * The demo's two skills (Skills extension, SEP-2640; docs/skills.md): `edge-deploy`, with files in
 * two subdirectories, and `release-notes` under the prefix `mcp-edge/docs`. Inline strings here; a
 * project would rather import SKILL.md files through a wrangler Text rule (docs/skills.md).
 */
import type { ServerDefinition as McpServer } from "../index";
import { defineSkill } from "../features/skills/index";

const EDGE_DEPLOY_MD = `---
name: edge-deploy
description: Deploy an MCP server to Cloudflare Workers with its Durable Object bindings and migrations
license: MIT
metadata:
  author: mcp-edge
  version: "1.0"
---

# Deploying an mcp-edge server

1. Check the bindings against \`references/bindings.md\`.
2. Run \`scripts/check.sh\` before \`wrangler deploy\`.
`;

const BINDINGS_MD = `# Bindings

- MCP_SESSION: McpSession (sessions, 2025-era clients)
- MCP_HUB: McpHub (listen streams and publish)
- MCP_TASK: McpTask (the Tasks extension)
`;

const CHECK_SH = `#!/bin/sh
# Fails when wrangler.toml lacks a migration for a bound class.
npx wrangler deploy --dry-run --outdir /tmp/mcp-edge-check
`;

const RELEASE_NOTES_MD = `---
name: release-notes
description: 'Write release notes in the style of this project''s CHANGELOG: Added, Changed, Fixed'
---

# Release notes

Group entries under "### Added", "### Changed" and "### Fixed"; one line each, what a user notices.
`;

/** Adds the demo's skills (one call from the demo's definition). */
export function addSkillDemos<Env>(server: McpServer<Env>): void {
  const cache = { ttlMs: 300_000, scope: "public" } as const;
  server.skill(
    defineSkill({
      skillMd: EDGE_DEPLOY_MD,
      files: { "references/bindings.md": BINDINGS_MD, "scripts/check.sh": CHECK_SH },
      cache,
    }),
  );
  server.skill(defineSkill({ skillMd: RELEASE_NOTES_MD, path: "mcp-edge/docs", cache }));
}
