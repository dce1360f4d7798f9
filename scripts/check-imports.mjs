// The import rules of src/ and durable-objects/ (CONTRIBUTING.md "Project layout"), from every
// import, export-from and import() (types included), read with the TypeScript parser:
// 1. No loop between folders. A node is src/<folder>, src/mcp/<folder>, durable-objects/<object>,
//    the files directly under src/ together ("src/*.ts", a folder like any other, so a loop that
//    leaves src/ for an object and comes back through another root file is seen), the same for
//    durable-objects/, and each public entry module of package.json's "exports" on its own (they
//    re-export everything by design). GRANTED imports still close loops and are to be removed: each
//    names its reason, and one that no longer closes a loop fails the check, so the list only shrinks.
// 2. A feature (src/features/<name>/) imports only the kernel, src/mcp, the platform layer, src/wire,
//    src/jsonrpc, src/auth, its own object (durable-objects/<name>/) and another feature's contract;
//    src/kernel, src/mcp and src/http never import a feature.
// Part of `npm run lint`; exit 1 with one line per problem. test/scripts/check-imports.node.test.ts feeds it small trees.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const DIRS = ["src", "durable-objects"];

/** Imports (from: a file or node, `*` ends a prefix → to: a node) known to close loops, each with why it is still there. */
/**
 * Known exceptions, each with why it is still there and what removes it; one no longer needed fails
 * the check, so the list only shrinks. Loops: from a file or node, to a node. `rule: "feature"`: a
 * feature's import of a file (`to`) outside what rule 2 allows, while its Worker side moves into its wing.
 */
export const GRANTED = [
  {
    rule: "feature",
    from: "src/features/tasks/*",
    to: "durable-objects/shared/edge-binding.ts",
    why: "the deprecated taskObject(edge) reads the edge's binding; goes with that factory in the next minor release",
  },
  {
    rule: "feature",
    from: "src/features/sessions/session-object.ts",
    to: "durable-objects/shared/edge-binding.ts",
    why: "the deprecated sessionObject(edge) and deferredSessionObject(edge) read the edge's binding; go with those factories in the next minor release",
  },
  {
    rule: "feature",
    from: "src/features/hub/hub-object.ts",
    to: "durable-objects/shared/edge-binding.ts",
    why: "the deprecated hubObject(edge) reads the edge's binding; goes with that factory in the next minor release",
  },
  {
    rule: "feature",
    from: "src/features/user/user-object.ts",
    to: "durable-objects/shared/edge-binding.ts",
    why: "the deprecated userObject(edge) reads the edge's binding; goes with that factory in the next minor release",
  },
];

/** What a feature may import besides its own wing and other features' contracts. */
const FEATURE_MAY_IMPORT = ["src/kernel/", "src/mcp/", "src/platform/", "src/wire/", "src/jsonrpc/", "src/auth/"];
/** The layers that never import a feature. */
const NEVER_IMPORT_FEATURES = ["src/kernel/", "src/mcp/", "src/http/"];

function matches(pattern, value) {
  return pattern.endsWith("*") ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

/** The tree's .ts files under src/ and durable-objects/, path → text, and its package.json's "exports" targets. */
export function readTree(root) {
  const files = new Map();
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return;
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.set(path, readFileSync(join(root, path), "utf8"));
    }
  };
  for (const dir of DIRS) walk(dir);
  const exports = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports ?? {};
  const targets = Object.values(exports).map((e) => (typeof e === "string" ? e : e?.default));
  // "./dist/src/index.js" → "src/index.ts"
  const entries = targets.filter((t) => typeof t === "string").map((t) => t.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts"));
  return { files, entries };
}

/** The folder-level node a repository path belongs to. */
function nodeOf(path, entries) {
  if (entries.includes(path)) return path;
  const parts = path.split("/");
  if (parts.length === 2) return `${parts[0]}/*.ts`;
  if (parts[0] === "src" && parts[1] === "mcp" && parts.length > 3) return parts.slice(0, 3).join("/");
  return parts.slice(0, 2).join("/");
}

/** A relative specifier resolved to a file of the tree (extensionless, index, .js written for .ts). */
function resolveImport(files, from, specifier) {
  if (!specifier.startsWith(".")) return null;
  const base = posix.join(posix.dirname(from), specifier).replace(/\.js$/, "");
  return [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => files.has(candidate)) ?? null;
}

/** Every import of the tree that resolves to one of its files: { file, specifier, target }. */
function importsOf(files) {
  const found = [];
  for (const [file, text] of files) {
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveImport(files, file, fileName);
      if (target) found.push({ file, specifier: fileName, target });
    }
  }
  return found;
}

/** The feature a path belongs to (src/features/<name>/… or durable-objects/<name>/…), else undefined. */
function featureOf(path) {
  const parts = path.split("/");
  return parts[0] === "src" && parts[1] === "features" && parts.length > 3 ? parts[2] : undefined;
}

/** Rule 2, import by import; `granted` ({ from: file, to: target file, `*` ends a prefix }) are pending moves. */
function layerViolations(imports, granted) {
  const problems = [];
  const used = new Set();
  for (const { file, specifier, target } of imports) {
    const feature = featureOf(file);
    if (NEVER_IMPORT_FEATURES.some((layer) => file.startsWith(layer)) && target.startsWith("src/features/")) {
      problems.push(
        `${file} → ${specifier}: src/kernel, src/mcp and src/http never import a feature (it plugs in through the Feature shape, src/kernel/feature.ts)`,
      );
    }
    if (!feature) continue;
    const own = target.startsWith(`src/features/${feature}/`) || target.startsWith(`durable-objects/${feature}/`);
    const contract = /^(src\/features|durable-objects)\/[^/]+\/contract\.ts$/.test(target);
    if (!own && !contract && !FEATURE_MAY_IMPORT.some((layer) => target.startsWith(layer))) {
      const grant = granted.find((g) => matches(g.from, file) && matches(g.to, target));
      if (grant) used.add(grant);
      else
        problems.push(
          `${file} → ${specifier}: a feature imports only src/kernel, src/mcp, src/platform, src/wire, src/jsonrpc, src/auth, its own object and other features' contract.ts`,
        );
    }
  }
  for (const grant of granted.filter((g) => !used.has(g)))
    problems.push(
      `granted feature import ${grant.from} → ${grant.to} is no longer made: remove it from GRANTED in scripts/check-imports.mjs`,
    );
  return problems;
}

/** Whether `from` reaches itself through `first` over the edges not skipped. */
function pathBack(edges, from, first, skip) {
  const previous = new Map([[first, from]]);
  const queue = [first];
  while (queue.length) {
    const node = queue.shift();
    if (node === from) {
      const path = [from];
      for (let at = previous.get(from); at !== from; at = previous.get(at)) path.unshift(at);
      return [from, ...path];
    }
    for (const [next, links] of edges.get(node) ?? []) {
      if (previous.has(next) || links.every(skip)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  return undefined;
}

/** Rule 1: one line per loop (with the import that makes each step), then one per stale grant. */
function folderLoops(imports, entries, granted) {
  const edges = new Map();
  for (const link of imports) {
    const [from, to] = [nodeOf(link.file, entries), nodeOf(link.target, entries)];
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, []);
    edges
      .get(from)
      .get(to)
      .push({ ...link, from, to });
  }
  const grantOf = (link) => granted.find((g) => (matches(g.from, link.file) || matches(g.from, link.from)) && matches(g.to, link.to));
  const problems = [];
  const reported = new Set();
  for (const [from, targets] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [to, links] of targets) {
      if (links.every(grantOf)) continue;
      const loop = pathBack(edges, from, to, grantOf);
      const key = loop && [...loop.slice(1)].sort().join(" ");
      if (!loop || reported.has(key)) continue;
      reported.add(key);
      const steps = loop.slice(0, -1).map((node, i) =>
        edges
          .get(node)
          .get(loop[i + 1])
          .find((l) => !grantOf(l)),
      );
      problems.push(`loop: ${loop.join(" → ")}\n${steps.map((l) => `    ${l.file} → ${l.specifier}`).join("\n")}`);
    }
  }
  for (const grant of granted) {
    const used = [...edges.values()].some((targets) =>
      [...targets].some(([, links]) => links.some((l) => grantOf(l) === grant && pathBack(edges, l.from, l.to, () => false))),
    );
    if (!used)
      problems.push(
        `granted import ${grant.from} → ${grant.to} no longer closes a loop: remove it from GRANTED in scripts/check-imports.mjs`,
      );
  }
  return { problems, nodes: new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]).size };
}

/** Both rules on a tree (readTree): the problems (none when it holds) and a one-line summary. */
export function checkImports({ files, entries }, granted = GRANTED) {
  const imports = importsOf(files);
  const loops = folderLoops(
    imports,
    entries,
    granted.filter((g) => g.rule !== "feature"),
  );
  const problems = [
    ...loops.problems,
    ...layerViolations(
      imports,
      granted.filter((g) => g.rule === "feature"),
    ),
  ];
  const grants = granted.length ? ` but the ${granted.length} granted in scripts/check-imports.mjs` : "";
  return {
    problems,
    summary: `imports: no loop between the ${loops.nodes} folders of src/ and durable-objects/${grants}, features import only what they may`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { problems, summary } = checkImports(readTree(join(import.meta.dirname, "..")));
  if (problems.length) {
    console.error(`${problems.length} import problem(s) (CONTRIBUTING.md "Project layout"):\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(summary);
}
