/**
 * One source of truth for a newcomer's first hour: the README's install and testing steps and
 * docs/testing.md's test are the files `npm create mcp-edge` writes (create-mcp-edge/template),
 * verbatim, and the versions they name are the ones the scaffold pins and this repository tests
 * with. (The scaffold itself runs end to end in the consumer test.)
 */
import { describe, expect, it } from "vitest";
import creatorPackage from "../../create-mcp-edge/package.json?raw";
import template from "../../create-mcp-edge/template/package.json?raw";
import index from "../../create-mcp-edge/template/src/index.ts?raw";
import toolsTest from "../../create-mcp-edge/template/test/tools.test.ts?raw";
import tsconfig from "../../create-mcp-edge/template/tsconfig.json?raw";
import vitestConfig from "../../create-mcp-edge/template/vitest.config.ts?raw";
import wrangler from "../../create-mcp-edge/template/wrangler.toml?raw";
import testingPage from "../../docs/testing.md?raw";
import rootPackage from "../../package.json?raw";
import readme from "../../README.md?raw";

/** The fenced code blocks of a page, without their list indentation. */
function blocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)```\w*\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
    (body ?? "")
      .split("\n")
      .map((line) => line.slice((indent ?? "").length))
      .join("\n")
      .trimEnd(),
  );
}

type Pkg = { version: string; type?: string; devDependencies: Record<string, string> };
const scaffold = JSON.parse(template) as Pkg;

describe("the README and the scaffold are the same files", () => {
  it.each([
    ["src/index.ts", index],
    ["wrangler.toml", wrangler],
    ["tsconfig.json", tsconfig],
    ["vitest.config.ts", vitestConfig],
  ])("the README shows the scaffold's %s verbatim", (_file, content) => {
    expect(blocks(readme)).toContain(content.trimEnd());
  });

  it("docs/testing.md shows the scaffold's test/tools.test.ts verbatim", () => {
    expect(blocks(testingPage)).toContain(toolsTest.trimEnd());
  });

  it("the README's install makes an ES module project, like the scaffold's package.json", () => {
    expect(scaffold.type).toBe("module");
    expect(readme).toContain("npm init -y && npm pkg set type=module");
    expect(readme).toContain("npm create mcp-edge@latest my-mcp-server");
  });

  it("every dev dependency the README installs is at the version the scaffold pins", () => {
    for (const [name, version] of Object.entries(scaffold.devDependencies)) expect(readme).toContain(`${name}@${version}`);
    expect(testingPage).toContain(`vitest@${scaffold.devDependencies.vitest}`);
  });

  it("the scaffold pins the versions this repository tests with, and is released with mcp-edge", () => {
    const root = JSON.parse(rootPackage) as Pkg;
    for (const [name, version] of Object.entries(scaffold.devDependencies))
      expect({ name, version }).toEqual({ name, version: root.devDependencies[name] });
    expect((JSON.parse(creatorPackage) as Pkg).version).toBe(root.version);
  });
});
