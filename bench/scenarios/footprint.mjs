// Bench part: memory and local storage per live session, mcp-edge against the floor.

import { send, waitForIdle } from "../harness/load.mjs";
import { sqliteBytes, workerdRss } from "../harness/footprint.mjs";
import { INITIALIZE, openSession, POST_HEADERS } from "./messages.mjs";

/**
 * Memory and local storage per live session, each side measured on its own server: the growth of
 * the server's workerd resident memory and of its SQLite files while `footprintSessions` sessions
 * are opened and kept (mcp-edge: initialize + initialized; floor: a new Durable Object storing one
 * row). Figures, not budgets: resident memory moves with the allocator and GC.
 */
export async function footprintScenario(opts, demo, floor, demoServer, floorServer) {
  const n = opts.footprintSessions;
  const measure = async (server, open) => {
    await waitForIdle(opts.serverPids, 200, 5_000);
    const rss = workerdRss(server.workerdPids);
    const stored = sqliteBytes(server.persistDir);
    let started = 0;
    let errors = 0;
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (started < n) {
          started++;
          await open().catch(() => errors++);
        }
      }),
    );
    await waitForIdle(opts.serverPids, 200, 5_000);
    return {
      sessions: n,
      errors,
      memoryPerSession: (workerdRss(server.workerdPids) - rss) / n,
      storagePerSession: (sqliteBytes(server.persistDir) - stored) / n,
    };
  };
  process.stderr.write(`bench: memory and storage of ${n} live sessions per side …\n`);
  const ours = await measure(demoServer, () => openSession(demo));
  const base = await measure(floorServer, () => send(floor, { path: "/do-init", headers: POST_HEADERS, body: INITIALIZE }));
  return { ours, floor: base };
}
