// Checks that the README, CONTRIBUTING.md, the CHANGELOG and every page under docs/ link only to
// files and headings that exist, and that every `docs/<page>.md "<Section>"` a source comment or
// the CHANGELOG cites names a heading of that page. Part of `npm run lint`. Exit 1 with one line per dead link.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const pages = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(join(ROOT, file), "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replaceAll(" ", "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Heading texts of a page, for comment citations. */
function headingsOf(file) {
  return new Set([...readFileSync(join(ROOT, file), "utf8").matchAll(/^#{1,6} (.*)$/gm)].map((m) => m[1].trim()));
}

const problems = [];
const anchorCache = new Map();
const anchors = (file) => anchorCache.get(file) ?? anchorCache.set(file, anchorsOf(file)).get(file);

for (const page of pages) {
  let fenced = false;
  readFileSync(join(ROOT, page), "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.startsWith("```")) fenced = !fenced;
      if (fenced) return;
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, fragment] = target.split("#");
        const file = path === "" ? page : normalize(join(dirname(page), path));
        const where = `${page}:${i + 1}`;
        if (!existsSync(join(ROOT, file))) problems.push(`${where}: ${target}: no file ${file}`);
        else if (fragment && file.endsWith(".md") && !anchors(file).has(fragment))
          problems.push(`${where}: ${target}: no heading #${fragment} in ${file}`);
      }
    });
}

// Comments that cite a section: docs/<page>.md "<Section>".
function* sources(dir) {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* sources(path);
    } else if (/\.(ts|mjs|js)$/.test(entry.name)) yield path;
  }
}
for (const dir of ["src", "durable-objects", "test", "scripts", "bench"]) {
  if (!existsSync(join(ROOT, dir))) continue;
  for (const file of sources(dir)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/(docs\/[\w-]+\.md|README\.md|CONTRIBUTING\.md)(?: "([^"]+)")?/g)) {
      const [, cited, section] = m;
      if (!existsSync(join(ROOT, cited))) problems.push(`${relative(ROOT, join(ROOT, file))}: cites ${cited}, which does not exist`);
      else if (section && !headingsOf(cited).has(section)) problems.push(`${file}: cites ${cited} "${section}", which has no such heading`);
    }
  }
}

// Sections the CHANGELOG names in words, as README "Install" or docs/<page>.md "<Section>": a
// release note must still lead somewhere once the section moves.
const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8").split("\n");
changelog.forEach((line, i) => {
  for (const [, cited, section] of line.matchAll(/\b(docs\/[\w-]+\.md|README(?:\.md)?|CONTRIBUTING\.md) "([^"]+)"/g)) {
    const file = cited === "README" ? "README.md" : cited;
    if (!existsSync(join(ROOT, file))) problems.push(`CHANGELOG.md:${i + 1}: names ${cited}, which does not exist`);
    else if (!headingsOf(file).has(section)) problems.push(`CHANGELOG.md:${i + 1}: names ${cited} "${section}", which has no such heading`);
  }
});

// Every diagram has its text source beside it, and every source its rendering (npm run diagrams).
const diagrams = join(ROOT, "docs", "diagrams");
if (existsSync(diagrams)) {
  const names = readdirSync(diagrams);
  for (const name of names) {
    const [base, ext] = [name.replace(/\.(dot|svg)$/, ""), name.split(".").pop()];
    const other = ext === "dot" ? `${base}.svg` : ext === "svg" ? `${base}.dot` : undefined;
    if (other && !names.includes(other)) problems.push(`docs/diagrams/${name}: no ${other} beside it (npm run diagrams)`);
  }
}

if (problems.length) {
  console.error(`${problems.length} dead link(s) or citation(s):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`docs: ${pages.length} pages, every link and cited section exists`);
