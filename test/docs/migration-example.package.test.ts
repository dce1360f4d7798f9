/**
 * docs/migrate-from-mcpagent.md shows examples/from-mcpagent, which the consumer test installs,
 * builds and serves: the page's code and wrangler.toml must be that example's, comments aside,
 * so what a reader copies is what was tested.
 */
import { describe, expect, it } from "vitest";
import page from "../../docs/migrate-from-mcpagent.md?raw";
import source from "../../examples/from-mcpagent/src/index.ts?raw";
import wrangler from "../../examples/from-mcpagent/wrangler.toml?raw";

/** The code of a fence of the given language, without comments and blank lines. */
function code(text: string, comment: string): string {
  return text
    .split("\n")
    .map((line) => {
      const at = line.indexOf(comment);
      return (at === -1 ? line : line.slice(0, at)).trimEnd();
    })
    .filter((line) => line.trim() !== "")
    .join("\n");
}
const blocks = (lang: string) => [...page.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1] ?? "");

describe("the McpAgent migration page shows the tested example", () => {
  it("its TypeScript is examples/from-mcpagent/src/index.ts", () => {
    expect(blocks("ts").map((b) => code(b, "//"))).toContain(code(source, "//"));
  });

  it("its wrangler.toml is the example's, migrations included", () => {
    expect(blocks("toml").map((b) => code(b, "#"))).toContain(code(wrangler, "#"));
  });
});
