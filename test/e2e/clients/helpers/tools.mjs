// Where the client programs live (the bin scripts of the pinned devDependencies), and temp folders.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { REPO_ROOT } from "./compat.mjs";

/** Absolute path of a package's bin script, read from its package.json. */
export function packageBin(name, bin) {
  const dir = join(REPO_ROOT, "node_modules", name);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const rel = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[bin ?? name.split("/").pop()];
  if (!rel) throw new Error(`${name} has no bin ${bin ?? ""}`);
  return join(dir, rel);
}

/** A new empty folder under the system temp folder; remove() deletes it. */
export function tempDir(prefix) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The Node binary running this process (the project's Node, 22.12 or newer). */
export function currentNode() {
  return process.execPath;
}

/** PATH with this process's Node first, so that `npm` and the tools it starts run on it too. */
export function pathWithCurrentNode() {
  return `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
}
