/**
 * The import check of `npm run lint` (scripts/check-imports.mjs) on small trees: it passes a tree
 * that keeps the rules and fails one that breaks them, naming the import.
 */
import { describe, expect, it } from "vitest";
import { checkImports, type Tree } from "../../scripts/check-imports.mjs";

/** A tree from path → imported paths (each written as the relative specifier a file would use). */
function tree(imports: Record<string, string[]>, entries: string[] = ["src/index.ts"]): Tree {
  return {
    files: new Map(Object.entries(imports).map(([file, specifiers]) => [file, specifiers.map((s) => `import "${s}";`).join("\n")])),
    entries,
  };
}

/** A features layout that keeps every rule. */
const GOOD = {
  "src/index.ts": ["./kernel/edge", "./features/tasks/index"],
  "src/kernel/edge.ts": ["./feature", "../mcp/core"],
  "src/kernel/feature.ts": [],
  "src/mcp/core.ts": ["../jsonrpc/messages"],
  "src/jsonrpc/messages.ts": [],
  "src/platform/bindings.ts": [],
  "src/http/router.ts": ["../kernel/feature", "../mcp/core"],
  "src/features/tasks/index.ts": [
    "../../kernel/feature",
    "../../platform/bindings",
    "../../../durable-objects/tasks/contract",
    "../../../durable-objects/tasks/task",
    "../hub/contract",
  ],
  "src/features/hub/contract.ts": [],
  "durable-objects/tasks/contract.ts": ["../../src/jsonrpc/messages"],
  "durable-objects/tasks/task.ts": ["./contract", "../../src/mcp/core"],
};

describe("scripts/check-imports.mjs", () => {
  it("passes a tree whose features import only the kernel, the core layers, their own object and contracts", () => {
    expect(checkImports(tree(GOOD), []).problems).toEqual([]);
  });

  it("passes today's tree, which has no features folder", () => {
    expect(checkImports(tree({ "src/index.ts": ["./mcp/core"], "src/mcp/core.ts": [] }), []).problems).toEqual([]);
  });

  it("fails a feature that imports the Worker's transport or another feature's inside", () => {
    const bad = { ...GOOD, "src/features/tasks/lane.ts": ["../../http/router", "../hub/publish"], "src/features/hub/publish.ts": [] };
    const { problems } = checkImports(tree(bad), []);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain("src/features/tasks/lane.ts → ../../http/router: a feature imports only");
    expect(problems[1]).toContain("src/features/tasks/lane.ts → ../hub/publish");
  });

  it("fails a feature that imports another feature's object (not its contract)", () => {
    const bad = { ...GOOD, "src/features/hub/index.ts": ["../../../durable-objects/tasks/task"] };
    expect(checkImports(tree(bad), []).problems.join("\n")).toContain("src/features/hub/index.ts → ../../../durable-objects/tasks/task");
  });

  it("lets a granted feature import through while its move is pending, and fails the grant once the import is gone", () => {
    const pending = { ...GOOD, "src/features/tasks/lane.ts": ["../../tasks/seam"], "src/tasks/seam.ts": [] };
    // Prefixes end in "*" (written apart here: the docs check reads a slash-star in this file as a comment).
    const grant = { rule: "feature" as const, from: `${"src/features/tasks/"}*`, to: `${"src/tasks/"}*`, why: "test" };
    expect(checkImports(tree(pending), [grant]).problems).toEqual([]);
    expect(checkImports(tree(GOOD), [grant]).problems).toEqual([
      `granted feature import ${grant.from} → ${grant.to} is no longer made: remove it from GRANTED in scripts/check-imports.mjs`,
    ]);
  });

  it("fails the kernel, src/mcp or src/http importing a feature", () => {
    const bad = { ...GOOD, "src/mcp/core.ts": ["../features/tasks/index"], "src/http/router.ts": ["../features/hub/contract"] };
    const problems = checkImports(tree(bad), []).problems.filter((p) => p.includes("never import a feature"));
    expect(problems.map((p) => p.split(":")[0])).toEqual([
      "src/mcp/core.ts → ../features/tasks/index",
      "src/http/router.ts → ../features/hub/contract",
    ]);
  });

  it("sees a loop that leaves src/ for an object and comes back through another root file", () => {
    // edge.ts → the session object → options.ts: no file imports itself, but src/'s root files do.
    const loop = {
      "src/index.ts": ["./edge"],
      "src/edge.ts": ["../durable-objects/session/core"],
      "src/options.ts": [],
      "durable-objects/session/core.ts": ["../../src/options"],
    };
    const { problems } = checkImports(tree(loop), []);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`loop: durable-objects/session → ${"src/"}*.ts → durable-objects/session`);
    expect(problems[0]).toContain("src/edge.ts → ../durable-objects/session/core");
    // Granted, it passes; a grant nothing needs fails, so the list only shrinks.
    const grant = { from: "src/edge.ts", to: "*", why: "test" };
    expect(checkImports(tree(loop), [grant]).problems).toEqual([]);
    expect(checkImports(tree(GOOD), [grant]).problems).toEqual([
      "granted import src/edge.ts → * no longer closes a loop: remove it from GRANTED in scripts/check-imports.mjs",
    ]);
  });
});
