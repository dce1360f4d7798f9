/**
 * The pages npm publishes link only to files npm publishes: every relative link of a packed
 * Markdown page (README, CHANGELOG, docs/) resolves inside the tarball, so a reader of
 * node_modules/mcp-edge follows none to nowhere. The file list is `npm pack --dry-run`'s.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** What `npm pack` would put in the tarball (scripts skipped: the page list does not depend on the build). */
function packedFiles(): string[] {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((f) => f.path);
}

/** The relative link targets of a Markdown page, without anchors (code spans and blocks skipped). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const targets = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith("#")).map((t) => t.replace(/[#?].*$/, ""));
}

describe("the packed pages", () => {
  it("link only to files the tarball holds", () => {
    const files = packedFiles();
    const packed = new Set(files);
    const broken: string[] = [];
    for (const page of files.filter((f) => f.endsWith(".md"))) {
      for (const target of relativeLinks(readFileSync(join(root, page), "utf8"))) {
        const path = posix.normalize(posix.join(posix.dirname(page), target)).replace(/\/$/, "");
        const found = packed.has(path) || files.some((f) => f.startsWith(`${path}/`));
        if (!found) broken.push(`${page} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  }, 60_000);
});
