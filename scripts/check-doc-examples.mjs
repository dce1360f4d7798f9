#!/usr/bin/env node
// Type-checks every ```ts / ```typescript block of README.md and docs/*.md (part of `npm run lint`),
// so an example a user copies compiles. Each block is its own module, checked as a user's project
// would check it: "mcp-edge" and every subpath package.json exports ("mcp-edge/types",
// "mcp-edge/oauth", "mcp-edge/testing", …) are the package's own entry points (mapped to src/,
// so no build is needed), with zod, the Workers types and the Vitest integration's "cloudflare:test". One TypeScript program holds every block; only the blocks'
// own diagnostics are asked for, which keeps the check to a few seconds.
//
// It also keeps docs/server.md's "Every export" list true: the list between its markers is generated
// from the entry points; `--write-exports` rewrites it, the check fails when it is stale.
//
// A block that continues the page (it uses `server`, `edge`, `env` or the package's exports without
// declaring them) is marked ```ts fragment: it is still checked, with every export of the entry
// points, zod's `z`, `Env`, `server`, `edge` and `env` in scope (those it declares itself excepted).
// A block that is not code at all (an excerpt with "…") is marked `<!-- fragment -->` on the line
// just above its fence, and skipped. Exit 1 with each failing block's file, line and message.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const pages = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The TypeScript blocks of a page: each with the line its code starts on and whether it is a marked fragment. */
function blocksOf(page) {
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, lang, info] = open;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    if (lang === "ts" || lang === "typescript") {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === "") before--;
      const skipped = before >= 0 && lines[before].trim() === "<!-- fragment -->";
      const code = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
      blocks.push({ page, line: i + 2, skipped, fragment: /\bfragment\b/.test(info), code: `${code.join("\n")}\n` });
    }
    i = end;
  }
  return blocks;
}

const blocks = pages.flatMap(blocksOf);
const checked = blocks.filter((b) => !b.skipped);
const virtualDir = join(ROOT, ".doc-examples");
// A block of ambient `declare module` statements is a declaration file the page asks for (a `skills.d.ts`):
// checked as one, and in scope for the other blocks, as it would be in the reader's project.
const isDeclarations = (code) => /^\s*declare module /.test(code) && !/^(import|export)\b/m.test(code);
const virtual = new Map(
  checked.map((b) => [join(virtualDir, `${b.page.replace(/[/.]/g, "_")}_${b.line}${isDeclarations(b.code) ? ".d.ts" : ".ts"}`), b]),
);
// Every entry point package.json exports ("./bus" → "mcp-edge/bus"), mapped from its built file to its source.
const ENTRIES = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports)
    .filter(([, target]) => typeof target === "object" && target.default)
    .map(([key, target]) => [
      key === "." ? "mcp-edge" : `mcp-edge/${key.slice(2)}`,
      // A built entry is read from its TypeScript source; a plain-JavaScript one (mcp-edge/testing/receiver) from its types.
      target.default.startsWith("./dist/") ? target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts") : target.types.slice(2),
    ]),
);

const options = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ["lib.es2023.d.ts"],
  types: ["@cloudflare/workers-types", "@cloudflare/vitest-plugin/types"],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  baseUrl: ROOT,
  paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [file]])),
};
const host = ts.createCompilerHost(options);
const { getSourceFile, fileExists, readFile } = host;
host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
host.readFile = (file) => virtual.get(file)?.code ?? readFile.call(host, file);
host.getSourceFile = (file, language, ...rest) =>
  virtual.has(file) ? ts.createSourceFile(file, virtual.get(file).code, language, true) : getSourceFile.call(host, file, language, ...rest);

// First the entry points alone, for their export names; then the blocks, reusing that program's files.
const entries = ts.createProgram({ rootNames: Object.values(ENTRIES).map((f) => join(ROOT, f)), options, host });
const checker = entries.getTypeChecker();
const exported = Object.entries(ENTRIES).map(([specifier, file]) => {
  const source = entries.getSourceFile(join(ROOT, file));
  const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(source));
  // Names that arrive through `export type * from "…"` are types, whatever they are where declared.
  const starTypes = new Set(
    source.statements
      .filter((s) => ts.isExportDeclaration(s) && s.isTypeOnly && !s.exportClause && s.moduleSpecifier)
      .flatMap((s) => checker.getExportsOfModule(checker.getSymbolAtLocation(s.moduleSpecifier)).map((x) => x.name)),
  );
  // A value unless some re-export on the way is `export type` (a class exported as a type is a type here).
  const isValue = (s) => {
    if (starTypes.has(s.name) && !(s.flags & ts.SymbolFlags.Alias)) return false;
    for (let at = s; at; at = at.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(at) : undefined) {
      const d = at.declarations?.[0];
      if (d && (ts.isExportSpecifier(d) || ts.isImportSpecifier(d)) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) return false;
      if (d && ts.isExportDeclaration(d) && d.isTypeOnly) return false;
      if (!(at.flags & ts.SymbolFlags.Alias)) return (at.flags & ts.SymbolFlags.Value) !== 0;
    }
    return false;
  };
  return { specifier, values: symbols.filter(isValue).map((s) => s.name), types: symbols.filter((s) => !isValue(s)).map((s) => s.name) };
});

/** The names a block declares or imports itself, which the prelude must not declare again. */
function ownNames(code) {
  const names = new Set();
  for (const [, name] of code.matchAll(/\b(?:const|let|var|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g)) names.add(name);
  for (const [, list] of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const part of list.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, "");
      if (name) names.add(name);
    }
  for (const [, name] of code.matchAll(/import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from/g)) names.add(name);
  return names;
}

/** One line (so line numbers stay the page's) that puts the package and the page's usual names in scope. */
function prelude(code) {
  const own = ownNames(code);
  const free = (names) => names.filter((n) => !own.has(n));
  const parts = [];
  if (!own.has("z")) parts.push(`import { z } from "zod";`);
  for (const { specifier, values, types } of exported) {
    if (free(values).length) parts.push(`import { ${free(values).join(", ")} } from "${specifier}";`);
    if (free(types).length) parts.push(`import type { ${free(types).join(", ")} } from "${specifier}";`);
    for (const name of [...values, ...types]) own.add(name); // "mcp-edge/oauth" repeats Principal
  }
  const declared = {
    Env: `type Env = import("mcp-edge").EdgeEnv & import("mcp-edge/oauth").AuthorizationServerEnv & { [binding: string]: any };`,
    server: `declare const server: import("mcp-edge").ServerDefinition<Env>;`,
    edge: `declare const edge: import("mcp-edge").McpEdge<Env>;`,
    env: `declare const env: Env;`,
    // The testing pages continue a Vitest file: its functions, the Worker under test and a client.
    describe: `import { describe, it, expect } from "vitest";`,
    worker: `declare const worker: import("mcp-edge/testing").Fetcher;`,
    client: `declare const client: import("mcp-edge/testing").TestClient;`,
  };
  for (const [name, line] of Object.entries(declared)) if (!own.has(name)) parts.push(line);
  return parts.join(" ");
}
// docs/server.md "Every export": generated between its markers, checked here.
const EXPORTS_PAGE = join(ROOT, "docs/server.md");
const BEGIN = "<!-- exports:begin (generated by `npm run docs:exports`; do not edit) -->";
const END = "<!-- exports:end -->";
const list = exported
  .map(({ specifier, values, types }) => {
    const names = (xs) =>
      [...xs]
        .sort((a, b) => a.localeCompare(b))
        .map((n) => `\`${n}\``)
        .join(", ");
    const lines = [`- \`${specifier}\` (${values.length + types.length})`];
    if (values.length) lines.push(`  - values: ${names(values)}`);
    if (types.length) lines.push(`  - types: ${names(types)}`);
    return lines.join("\n");
  })
  .join("\n");
const page = readFileSync(EXPORTS_PAGE, "utf8");
const [head, rest] = page.split(BEGIN);
if (rest === undefined || !rest.includes(END)) throw new Error(`docs/server.md lacks the markers ${BEGIN} … ${END}`);
const current = `${head}${BEGIN}\n${list}\n${END}${rest.slice(rest.indexOf(END) + END.length)}`;
const problems = [];
if (process.argv.includes("--write-exports")) writeFileSync(EXPORTS_PAGE, current);
else if (current !== page) problems.push("docs/server.md: the export list is stale: run `npm run docs:exports`");

for (const block of checked) if (block.fragment) block.code = `${prelude(block.code)} ${block.code}`;

const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host, oldProgram: entries });
for (const [file, block] of virtual) {
  const source = program.getSourceFile(file);
  for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
    const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    problems.push(`${block.page}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n  ")}`);
  }
}
if (problems.length) {
  console.error(
    `${problems.length} error(s) in the docs' TypeScript blocks or export list (fix the block, or mark one that continues its page \`\`\`ts fragment):\n${problems.join("\n")}`,
  );
  process.exit(1);
}
const fragments = checked.filter((b) => b.fragment).length;
console.log(
  `doc examples: ${checked.length} TypeScript blocks compile (${fragments} of them fragments in their page's scope; ${blocks.length - checked.length} excerpts skipped)`,
);
