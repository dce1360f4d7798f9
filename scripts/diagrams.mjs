#!/usr/bin/env node
// npm run diagrams: renders each docs/diagrams/<name>.dot (the text source, Graphviz) to the <name>.svg
// beside it, which the docs link. Both are committed; edit the .dot, run this, commit both.
// Needs Graphviz's `dot` (apt-get install graphviz, brew install graphviz); without it, says so.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "diagrams");
if (spawnSync("dot", ["-V"]).error) {
  console.error("diagrams: Graphviz's `dot` is not installed (apt-get install graphviz, or brew install graphviz); nothing rendered");
  process.exit(1);
}
const sources = readdirSync(dir).filter((f) => f.endsWith(".dot"));
for (const source of sources) {
  const target = join(dir, source.replace(/\.dot$/, ".svg"));
  const svg = execFileSync("dot", ["-Tsvg", join(dir, source)], { encoding: "utf8" });
  // The picture's title (the graph's label) as the SVG's own <title>, for screen readers.
  const label = /\blabel="([^"]+)"/.exec(readFileSync(join(dir, source), "utf8"))?.[1] ?? source;
  writeFileSync(target, svg.replace(/(<svg\b[^>]*>)/, `$1\n<title>${label.replaceAll("&", "&amp;").replaceAll("<", "&lt;")}</title>`));
  console.log(`diagrams: docs/diagrams/${source} -> ${source.replace(/\.dot$/, ".svg")}`);
}
