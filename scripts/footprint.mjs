// What a running Worker occupies (Linux only), for the load test and the bench: resident memory
// of its workerd processes and the bytes of its Durable Object SQLite files.
// Plain .mjs with a .d.mts beside it: the e2e TypeScript has no Node types.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** Bytes of the SQLite files (database, -wal, -shm) under `dir`, recursively (0 before the first write makes it). */
export function sqliteBytes(dir) {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sqliteBytes(path);
    else if (/\.sqlite(-wal|-shm)?$/.test(entry.name)) total += statSync(path).size;
  }
  return total;
}
