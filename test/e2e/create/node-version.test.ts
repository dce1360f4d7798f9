// create-mcp-edge on a Node the project cannot run on refuses in one line with the fix, and writes
// nothing; on a Node it runs on, it writes the project. The CLI runs as a user runs it, its version
// check reading a faked process.versions.node (test/e2e/helpers/create.mjs).
import { describe, expect, it } from "vitest";
import { runCreate } from "../helpers/create.mjs";

describe("create-mcp-edge checks the Node it runs on", () => {
  it.each(["20.11.1", "18.20.4", "22.11.0"])("refuses Node %s with the one-line fix, writing nothing", async (version) => {
    const run = await runCreate(["my-server", "--no-install"], { nodeVersion: version });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      `create-mcp-edge: Node ${version} is too old; the project needs Node >= 22.12 (wrangler and vitest do). Install Node 22.12 or newer (e.g. nvm install 22), then run npm create mcp-edge@latest again (nothing was written).`,
    ]);
    expect(run.written).toEqual([]);
  });

  it.each(["22.12.0", "24.1.0"])("writes the project on Node %s", async (version) => {
    const run = await runCreate(["my-server", "--no-install"], { nodeVersion: version });
    expect(run.code, run.stderr).toBe(0);
    expect(run.written).toEqual(["my-server"]);
  });
});
