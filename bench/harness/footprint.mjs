// What a running Worker occupies (Linux only), for the load test and the bench: resident memory
// of its workerd processes and the bytes of its Durable Object SQLite files.
// Plain .mjs with a .d.mts beside it: the e2e TypeScript has no Node types.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Resident memory (bytes) of the given processes (from /proc; 0 for one that has ended). */
export function workerdRss(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += rss ? Number(rss[1]) * 1024 : 0;
    } catch {}
  }
  return total;
}

/**
 * Bytes of the SQLite files (database, -wal, -shm) under `dir`, recursively (0 before the first write makes it).
 * SQLite removes -wal and -shm files while the server runs, so a file or folder listed and gone before it is
 * measured counts 0 instead of failing the measurement.
 */
export function sqliteBytes(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (error?.code === "ENOENT") return 0;
    throw error;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sqliteBytes(path);
    else if (/\.sqlite(-wal|-shm)?$/.test(entry.name)) total += sizeIfPresent(path);
  }
  return total;
}

function sizeIfPresent(path) {
  try {
    return statSync(path).size;
  } catch (error) {
    if (error?.code === "ENOENT") return 0;
    throw error;
  }
}
