// No loops between folders: builds the import graph of src/ and durable-objects/ at folder level
// (a node is src/<folder>, src/mcp/<folder>, durable-objects/<object>, or a single file directly
// under src/ such as src/edge.ts) from every import, export-from and import() (types included),
// and fails on any cycle, printing it with one import per step that makes it. The imports in
// GRANTED still close loops and are to be removed: each is named with its reason, and one that
// no longer closes a loop fails the check too, so the list only shrinks.
// Part of `npm run lint`; exit 1 with one line per cycle (or stale grant).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dirname, "..");
const DIRS = ["src", "durable-objects"];
/** Imports (from → to; `*` ends a prefix) known to close loops, each with why it is still there. */
const GRANTED = [];

function matches(pattern, node) {
  return pattern.endsWith("*") ? node.startsWith(pattern.slice(0, -1)) : node === pattern;
}

function grantOf(from, to) {
  return GRANTED.find((g) => matches(g.from, from) && matches(g.to, to));
}

function* sources(dir) {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** The folder-level node a repository path belongs to (null: outside src/ and durable-objects/). */
function nodeOf(path) {
  const parts = path.split("/");
  if (parts[0] === "durable-objects") return parts.length > 2 ? parts.slice(0, 2).join("/") : path;
  if (parts[0] !== "src") return null;
  if (parts.length === 2) return path;
  if (parts[1] === "mcp" && parts.length > 3) return parts.slice(0, 3).join("/");
  return parts.slice(0, 2).join("/");
}

/** A relative specifier resolved to a file of the repository (extensionless, index, .js written for .ts). */
function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return null;
  const base = join(dirname(from), specifier).replace(/\.js$/, "");
  for (const candidate of [base + ".ts", join(base, "index.ts"), base]) {
    if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return relative(ROOT, join(ROOT, candidate));
  }
  return null;
}

/** edges.get(a).get(b): one import (file → specifier) that makes a depend on b. */
const edges = new Map();
for (const dir of DIRS) {
  for (const file of sources(dir)) {
    const from = nodeOf(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const target = resolve(file, fileName);
      const to = target && nodeOf(target);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} → ${fileName}`);
    }
  }
}

// Tarjan's strongly connected components: every component of more than one node holds a loop.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function connect(node) {
  order.set(node, index);
  low.set(node, index++);
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (grantOf(node, next)) continue;
    if (!order.has(next)) {
      connect(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), order.get(next)));
  }
  if (low.get(node) === order.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component);
  }
}
for (const node of [...edges.keys()].sort()) if (!order.has(node)) connect(node);

/** One shortest loop through the component's first node, as the imports that make it. */
function loopIn(component) {
  const inside = new Set(component);
  const start = [...component].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!inside.has(next) || grantOf(node, next)) continue;
      if (next === start) {
        const path = [node];
        while (previous.get(path[0])) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

/** Whether `to` reaches `from` over every import, granted ones included: the import from → to closes a loop. */
function closesLoop(from, to) {
  const seen = new Set([to]);
  const queue = [to];
  while (queue.length) {
    const node = queue.shift();
    if (node === from) return true;
    for (const next of edges.get(node)?.keys() ?? []) if (!seen.has(next) && seen.add(next)) queue.push(next);
  }
  return false;
}

const stale = GRANTED.filter((g) =>
  [...edges].every(([from, targets]) => [...targets.keys()].every((to) => !(grantOf(from, to) === g && closesLoop(from, to)))),
);
let failed = false;
if (components.length) {
  failed = true;
  console.error(`${components.length} loop(s) between folders (a folder imports, through others, itself):`);
  for (const component of components) {
    const loop = loopIn(component);
    const more = component.length > loop.length - 1 ? `  (${component.length} folders in all: ${component.sort().join(", ")})` : "";
    console.error(`  ${loop.join(" → ")}${more}`);
    for (let i = 0; i + 1 < loop.length; i++) console.error(`    ${edges.get(loop[i]).get(loop[i + 1])}`);
  }
}
if (stale.length) {
  failed = true;
  console.error("granted imports that no longer close a loop (remove them from GRANTED in scripts/check-imports.mjs):");
  for (const g of stale) console.error(`  ${g.from} → ${g.to}`);
}
if (failed) process.exit(1);
const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
const granted = GRANTED.length ? ` but the ${GRANTED.length} granted in scripts/check-imports.mjs` : "";
console.log(`imports: no loop between the ${nodes.size} folders of src/ and durable-objects/${granted}`);
