// Compatibility records. Each client test file writes one JSON record into results/compat/
// (git-ignored): which client, its version, the protocol revision it negotiated, what was
// exercised, and whether every test of the file passed. scripts/compat-table.mjs renders the
// records into the docs/compatibility.md "Client compatibility" table.
// Owns: results/compat/ (emptied once per e2e run by ./global-setup.mjs).

import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const COMPAT_DIR = join(REPO_ROOT, "results", "compat");

/** The installed version of a package from the repository's node_modules (undefined if absent). */
export function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** Writes results/compat/<id>.json (replacing an older record of the same id). */
export function writeCompatRecord(record) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(record.id)) throw new Error(`compat record id ${JSON.stringify(record.id)}: use [a-z0-9-]`);
  mkdirSync(COMPAT_DIR, { recursive: true });
  const path = join(COMPAT_DIR, `${record.id}.json`);
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}

/** Empties results/compat/ so that a run never shows a previous run's records. */
export function resetCompatRecords() {
  rmSync(COMPAT_DIR, { recursive: true, force: true });
  mkdirSync(COMPAT_DIR, { recursive: true });
}
