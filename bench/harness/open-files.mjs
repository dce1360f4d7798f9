// Open-file limits for the scenarios that hold thousands of connections (fan-out).
// workerd keeps two descriptors per accepted connection (it dups each socket right after
// accept4: `fcntl(fd, F_DUPFD_CLOEXEC)`, seen with strace), so one workerd process under
// RLIMIT_NOFILE n holds fewer than n / 2 connections: with `ulimit -n` 20,000 it refuses
// connections from about 9,950 on, whatever the Worker does. workerd inherits the limit of the
// Node process that starts it, and raising a hard limit needs CAP_SYS_RESOURCE.

import { readFileSync } from "node:fs";

/** Descriptors workerd holds per accepted connection. */
const WORKERD_FDS_PER_CONNECTION = 2;
/** What a workerd process has open before any client (storage, pipes, its own sockets), with room. */
const WORKERD_BASE_FDS = 500;

/** The soft RLIMIT_NOFILE of this process (what a workerd it starts inherits); Infinity where /proc is missing. */
function openFileLimit() {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return !line || line[1] === "unlimited" ? Number.POSITIVE_INFINITY : Number(line[1]);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** How many client connections one workerd process started from here can hold. */
export function connectionsPerWorkerd() {
  return Math.floor((openFileLimit() - WORKERD_BASE_FDS) / WORKERD_FDS_PER_CONNECTION);
}

/** Throws, saying why, when this process cannot hold `sockets` client sockets of its own. */
export function checkClientSockets(sockets) {
  const limit = openFileLimit();
  if (sockets + 100 > limit) {
    throw new Error(`this client may open ${limit} files and needs ${sockets} sockets: raise \`ulimit -n\` or ask for fewer streams`);
  }
}
