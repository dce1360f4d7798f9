#!/usr/bin/env node
// Builds the package into dist/ (npm run build; prepack runs it): tsc emits ES modules, .d.ts
// and source maps, then relative specifiers get their file extension ("./edge" -> "./edge.js"),
// which Node, every bundler and TypeScript's node16/nodenext resolution all require.
// The maps name the TypeScript sources, which the package ships beside dist/ (package.json
// "files": src without the demo, durable-objects); the build fails if a map names any other file.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], {
  stdio: "inherit",
});

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const SPECIFIER = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)(["'])/g;
let rewritten = 0;
for (const file of files(dist)) {
  if (!/\.(js|d\.ts)$/.test(file)) continue;
  const source = readFileSync(file, "utf8");
  const output = source.replace(SPECIFIER, (whole, head, specifier, tail) => {
    if (/\.(js|mjs|json)$/.test(specifier)) return whole;
    const base = resolve(dirname(file), specifier);
    const target = existsSync(`${base}.js`) ? `${specifier}.js` : existsSync(join(base, "index.js")) ? `${specifier}/index.js` : undefined;
    if (!target) throw new Error(`build: ${file} imports ${specifier}, which is not in dist/`);
    rewritten++;
    return `${head}${target}${tail}`;
  });
  if (output !== source) writeFileSync(file, output);
}
// Every source a map names must be a file the package ships ("files" in package.json).
const SHIPPED = /^(src\/(?!demo\/)|durable-objects\/).*\.ts$/;
let maps = 0;
for (const file of files(dist)) {
  if (!file.endsWith(".map")) continue;
  maps++;
  const map = JSON.parse(readFileSync(file, "utf8"));
  for (const source of map.sources) {
    const path = relative(root, resolve(dirname(file), map.sourceRoot ?? "", source))
      .split(sep)
      .join("/");
    if (!SHIPPED.test(path) || !existsSync(join(root, path)))
      throw new Error(`build: ${relative(root, file)} names ${path}, which the package does not ship`);
  }
}
console.log(`build: ${maps} source maps name only shipped sources`);
console.log(`build: dist/ written (${rewritten} relative imports given their extension)`);
