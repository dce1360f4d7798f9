// Checks that the README, CONTRIBUTING.md, the CHANGELOG and every page under docs/ link only to
// files and headings that exist, that every section, file and repository path a comment or a page
// cites exists (the rules are above the citation pass below), that CONTRIBUTING.md's layout has a line
// for every source folder, and that each diagram has its source. A page npm publishes links only to files npm
// publishes (the file list of `npm pack --dry-run`), so a reader of node_modules/mcp-edge follows no link to nowhere.
// Part of `npm run lint`. Exit 1 with one line per dead link or citation.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
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
// What the tarball holds (scripts skipped: the build adds dist/, which no page links to).
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const packList = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" });
const packedFiles = JSON.parse(packList)[0].files.map((f) => f.path);
const packed = (file) => packedFiles.includes(file) || packedFiles.some((f) => f.startsWith(`${file.replace(/\/$/, "")}/`));
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
        else if (packed(page) && !packed(file))
          problems.push(`${where}: ${target}: ${page} is in the package but ${file} is not (package.json "files", or link it by URL)`);
        else if (fragment && file.endsWith(".md") && !anchors(file).has(fragment))
          problems.push(`${where}: ${target}: no heading #${fragment} in ${file}`);
      }
    });
}

// Citations, in the comments of every .ts/.mts/.mjs/.js/.dot file (`//`, `/* */`), of every .toml/.yml
// file and .ci/run (`#`), every line of a .jsonc file (its lint messages are prose), and the text of every .md file under the folders below (fenced
// code blocks of .md files excepted), plus the root pages and the root's configuration files:
// - `<file>.md "<Section>"` (also `README "<Section>"`, `DESIGN "<Section>"`, `CONTRIBUTING "<Section>"`,
//   and the possessive `<file>.md's "<Section>"`, `README's "<Section>"`; a name ending one line with
//   its quoted section opening the next line is one citation):
//   the file must exist and have a heading with exactly that text. A bare name resolves against the
//   citing file's folder, then the repository root, then docs/; `DESIGN.md` and `DESIGN` mean
//   docs/DESIGN.md. A name that resolves nowhere is not in the repository and fails: a private
//   guide the code once cited is no citation a reader can follow. A section starting with `<` or `…`
//   is a placeholder, as in this comment. A cited section stays on one line (a quote opened after a
//   cited name and not closed on its line fails), so every citation is checked.
// - `<file>.md` alone: the file must resolve the same way, except names a user writes in their own
//   project (NOT_OURS) and names inside a quoted string (`"references/GUIDE.md"`: example data).
// - A path from the repository root, `src/…`, `durable-objects/…`, `test/…`, `scripts/…`, `bench/…`,
//   `docs/…`, `examples/…`, `create-mcp-edge/…`, `conformance/…`, `bin/…`, with an extension or a
//   trailing `/`: it must exist in the repository or in the project create-mcp-edge scaffolds
//   (create-mcp-edge/template/, the layout docs describe to a user). Globs (`*`, `{`, `<`), generated or
//   ignored output (dist/, results/, bench-results/, .wrangler/) and anything inside node_modules/ are
//   allowed. Partial paths (`sessions/core.ts`, `held-stream.ts`) are not checked.
const FOLDERS = ["src", "durable-objects", "test", "scripts", "bench", "docs", "create-mcp-edge", "examples"];
const NOT_OURS = new Set(["SKILL.md", "AGENTS.md", "CLAUDE.md"]);
const ALIASES = new Map([
  ["DESIGN.md", "docs/DESIGN.md"],
  ["DESIGN", "docs/DESIGN.md"],
  ["README", "README.md"],
  ["CONTRIBUTING", "CONTRIBUTING.md"],
  ["CHANGELOG", "CHANGELOG.md"],
]);
const ROOTS = "src|durable-objects|test|scripts|bench|docs|examples|create-mcp-edge|conformance|bin";
const CITATION = /(?<![\w/.@"-])((?:[\w.-]+\/)*[\w.-]+\.md\b|README|DESIGN|CONTRIBUTING|CHANGELOG|STYLE)(?:'s)?(?: "([^"]+)")?/g;
// A cited name at the end of a line whose section opens the next one (joined before CITATION runs).
const NAME_AT_END = /(?:\.md|\bREADME|\bDESIGN|\bCONTRIBUTING|\bCHANGELOG|\bSTYLE)(?:'s)?\s*$/;
const SECTION_AT_START = /^[\s*#/]*("[^"]+")/;
const PATH = new RegExp(`(?<![\\w/.@~$-])((?:${ROOTS})\\/[\\w./*{}<>,-]*)`, "g");
const UNCLOSED = /(?:\.md|\bREADME|\bDESIGN|\bCONTRIBUTING|\bCHANGELOG)(?:'s)? "[^"]*$/;
const GENERATED = /(^|\/)(dist|results|bench-results|\.wrangler|node_modules)(\/|$)/;

function* walk(dir) {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!["node_modules", "dist", "results", ".wrangler"].includes(entry.name)) yield* walk(path);
    } else if (/\.(ts|mts|mjs|js|md|dot|jsonc|toml|yml)$/.test(entry.name)) yield path;
  }
}

/** The lines a citation may sit on: comments of code, prose of Markdown; others blanked, numbering kept. */
function proseOf(file) {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  if (file.endsWith(".md")) {
    let fenced = false;
    return lines.map((line) => {
      if (line.startsWith("```")) fenced = !fenced;
      return fenced ? "" : line;
    });
  }
  // A .jsonc file is read whole: its lint messages are prose a developer reads, and globs there are no comments.
  if (file.endsWith(".jsonc")) return lines;
  if (/\.(toml|yml)$/.test(file) || file === ".ci/run") return lines.map((line) => /(?:^|\s)#(.*)$/.exec(line)?.[1] ?? "");
  let block = false;
  return lines.map((line) => {
    let out = "";
    let rest = line;
    while (rest.length) {
      if (block) {
        const close = rest.indexOf("*/");
        out += ` ${close < 0 ? rest : rest.slice(0, close)}`;
        if (close < 0) break;
        block = false;
        rest = rest.slice(close + 2);
        continue;
      }
      const m = /(^|[^:\\"'`\w])\/\/|\/\*/.exec(rest);
      if (!m) break;
      if (m[0].endsWith("/*")) {
        block = true;
        rest = rest.slice(m.index + m[0].length);
      } else {
        out += ` ${rest.slice(m.index + m[0].length)}`;
        break;
      }
    }
    return out;
  });
}

function resolveCited(name, from) {
  const alias = ALIASES.get(name);
  if (alias) return alias;
  for (const base of [dirname(from), ".", "docs"]) {
    const file = normalize(join(base, name));
    if (existsSync(join(ROOT, file))) return file;
  }
  return undefined;
}

const cited = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  ...readdirSync(ROOT).filter((f) => /^(wrangler.*\.toml|vitest.*\.ts|biome\.jsonc|tsconfig.*\.json)$/.test(f)),
  ...[".ci/run"].filter((f) => existsSync(join(ROOT, f))),
  ...FOLDERS.filter((d) => existsSync(join(ROOT, d))).flatMap((d) => [...walk(d)]),
];
const counts = { citations: 0, paths: 0 };
const headingCache = new Map();
const headings = (file) => headingCache.get(file) ?? headingCache.set(file, headingsOf(file)).get(file);
for (const file of cited) {
  const prose = proseOf(file);
  prose.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (UNCLOSED.test(line)) problems.push(`${where}: a cited section runs past the line; keep it on one line`);
    const next = NAME_AT_END.test(line) && SECTION_AT_START.exec(prose[i + 1] ?? "");
    const joined = next ? `${line.trimEnd()} ${next[1]}` : line;
    for (const m of joined.matchAll(CITATION)) {
      const [, name, section] = m;
      const bareWord = !name.endsWith(".md");
      if ((bareWord && !section) || /^[<…]/.test(section ?? "")) continue;
      if (NOT_OURS.has(name.split("/").pop()) || GENERATED.test(name)) continue;
      counts.citations++;
      const target = resolveCited(name, file);
      if (!target) problems.push(`${where}: cites ${name}, which is not in the repository`);
      else if (section && !headings(target).has(section))
        problems.push(`${where}: cites ${name} "${section}", but ${target} has no such heading`);
    }
    for (const [, raw] of line.matchAll(PATH)) {
      const path = raw.replace(/[.,]+$/, "");
      if (/[*{<]/.test(path) || GENERATED.test(path)) continue;
      // A .md path is a citation, checked above.
      if (!/\.(ts|mjs|js|toml|json|dot|svg|jsonc)$/.test(path) && !path.endsWith("/")) continue;
      counts.paths++;
      if (!existsSync(join(ROOT, path)) && !existsSync(join(ROOT, "create-mcp-edge/template", path)))
        problems.push(`${where}: names ${path}, which does not exist`);
    }
  });
}

// CONTRIBUTING.md's "Project layout" is the map of record: every folder of src/ and durable-objects/
// has its line there (a folder the map names that is not in the tree yet is the merger's to check).
{
  const text = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8");
  const start = text.indexOf("## Project layout");
  const map = text.slice(start, text.indexOf("\n## ", start + 1));
  const named = new Set([...map.matchAll(/^((?:src|durable-objects)\/[\w./-]*\/)/gm)].map((m) => m[1]));
  const folders = (dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) => [`${dir}/${e.name}/`, ...folders(`${dir}/${e.name}`)]);
  for (const folder of ["src", "durable-objects"].flatMap(folders)) {
    // Folders at the map's depth (src/*/, src/mcp/*/, durable-objects/*/) need their own line; deeper ones their parent's.
    const atDepth = /^(src\/(mcp\/)?|durable-objects\/)[\w.-]+\/$/.test(folder);
    const covered = named.has(folder) || (!atDepth && [...named].some((n) => folder.startsWith(n) && n.split("/").length > 2));
    if (!covered) problems.push(`CONTRIBUTING.md "Project layout": no line for ${folder}`);
  }
}

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
console.log(
  `docs: ${pages.length} pages' links, ${counts.citations} citations and ${counts.paths} paths in ${cited.length} files: all exist`,
);
