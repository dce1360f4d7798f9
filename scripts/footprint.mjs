// What a running `wrangler dev` server occupies (Linux only), for the load test and the bench:
// resident memory of its workerd processes and the bytes of its Durable Object SQLite files.
// Plain .mjs with a .d.mts beside it: the e2e TypeScript has no Node types.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Resident memory (bytes) of the workerd processes in process group `groupId` (from /proc). */
export function workerdRss(groupId) {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid pgrp …: comm may hold spaces, so fields are split after its ")".
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp !== groupId || !comm.startsWith("workerd")) continue;
      const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      total += rss ? Number(rss[1]) * 1024 : 0;
    } catch {
      // The process ended while it was being read.
    }
  }
  return total;
}

/** Bytes of the SQLite files (database, -wal, -shm) under `dir`, recursively. */
export function sqliteBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sqliteBytes(path);
    else if (/\.sqlite(-wal|-shm)?$/.test(entry.name)) total += statSync(path).size;
  }
  return total;
}
