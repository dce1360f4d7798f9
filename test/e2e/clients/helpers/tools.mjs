// Where the client programs live (the bin scripts of the pinned devDependencies; the Node 22 that
// scripts/tools.mjs keeps in .tools/ for tools needing Node >= 22, i.e. the Inspector), and temp folders.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureTools } from "../../../../scripts/tools.mjs";
import { REPO_ROOT } from "./compat.mjs";

/** Absolute path of a package's bin script, read from its package.json. */
export function packageBin(name, bin) {
  const dir = join(REPO_ROOT, "node_modules", name);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const rel = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[bin ?? name.split("/").pop()];
  if (!rel) throw new Error(`${name} has no bin ${bin ?? ""}`);
  return join(dir, rel);
}

/** The pinned Node 22 from .tools/ (installed from the npm registry on first use). */
export function node22() {
  return ensureTools({ log: (line) => process.stderr.write(`${line}\n`) }).node;
}

/** A new empty folder under the system temp folder; remove() deletes it. */
export function tempDir(prefix) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The Node binary running this process (the project's Node, 20 or newer). */
export function currentNode() {
  return process.execPath;
}
