// First step of `npm test`: checks what the suite needs outside node_modules, in a second, and
// prints the one line that fixes each gap instead of failing minutes later. Exit 1 on a gap.
// Needs: Node >= 22.12 (wrangler, vitest), openssl (the HTTPS test's certificate), a Chromium
// for the browser test (Debian's package, or MCP_EDGE_CHROMIUM; playwright-core downloads none).

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.MCP_EDGE_CHROMIUM ?? "/usr/bin/chromium";
const [major, minor] = process.versions.node.split(".").map(Number);
const problems = [];
if (major < 22 || (major === 22 && minor < 12)) {
  problems.push(
    `Node ${process.versions.node} is too old: install Node >= 22.12 (e.g. \`nvm install 22\`), or run \`bash .ci/run\`, which fetches one`,
  );
}
if (spawnSync("openssl", ["version"], { stdio: "ignore" }).status !== 0) {
  problems.push("openssl not found: sudo apt-get install -y openssl");
}
if (!existsSync(chromium)) {
  problems.push(`${chromium} not found (browser test): sudo apt-get install -y chromium, or set MCP_EDGE_CHROMIUM to a Chromium binary`);
}
if (problems.length > 0) {
  console.error(`npm test needs:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
