// Bench scenario of the operating features (bench/operate): the same 2026-07-28 tools/call (echo) on the
// same server definition, bare ("floor" side) against one middleware and tracing on ("mcp-edge" side),
// in one workerd process, so the CPU ratio is the cost of operating it (budget: ≤ 1.10). Two reference
// sides: the middleware alone, and the bare server once more (identical to the floor side: its ratio is the noise).

import { send } from "../harness/load.mjs";
import { expectEcho, MODERN_ECHO_CALL, MODERN_HEADERS } from "./messages.mjs";

export function operateScenario(_opts, pool) {
  const call = (path) => async () => expectEcho((await send(pool, { path, headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text);
  return {
    key: "operate",
    name: "2026-07-28 tools/call with one middleware and tracing (no-op exporter), vs the same server bare",
    unit: "req/s",
    floor: call("/plain/mcp"),
    ours: call("/operated/mcp"),
    references: [
      { key: "middleware", name: "the middleware alone (no tracer)", operation: call("/middleware/mcp") },
      // The same bare server as the floor side, measured as a third side: how far apart two identical sides land in this run.
      { key: "bare-again", name: "the bare server again (the run's noise)", operation: call("/plain/mcp") },
    ],
  };
}
