// Bench scenarios of the Worker lane: a stateless 2025 tools/call, a 2026-07-28 tools/call (with the
// agents createMcpHandler reference) and one MRTR round, each against one floor call.

import { send } from "../harness/load.mjs";
import { versionOf } from "../harness/report.mjs";
import { ECHO_CALL, expectEcho, MODERN_ECHO_CALL, MODERN_HEADERS, mrtrRound, POST_HEADERS, PROTOCOL_VERSION } from "./messages.mjs";

/**
 * Operations of a scenario whose CPU ratio is a budget verdict, in multiples of --requests. The
 * runtime collects its old generation every few tens of thousands of requests, a few hundred
 * milliseconds each time, on either side: in a run of 4,000 operations whether one fell in a
 * side's bursts moved the ratio by a tenth; over 40,000 each side pays for its collections about
 * as often as it makes them.
 */
const CPU_VERDICT_SCALE = 10;

/** The scenarios, in the order the report lists them; `pids` bills each side's CPU to its own workerd processes. */
export function workerLaneScenarios(_opts, { demo, floor, agents, pids }) {
  const floorEcho = async () => expectEcho((await send(floor, { path: "/mcp", headers: POST_HEADERS, body: ECHO_CALL })).text);
  return [
    {
      key: "stateless",
      name: "stateless tools/call (echo)",
      unit: "req/s",
      floor: floorEcho,
      ours: async () =>
        expectEcho(
          (
            await send(demo, {
              path: "/stateless/mcp",
              headers: { ...POST_HEADERS, "mcp-protocol-version": PROTOCOL_VERSION },
              body: ECHO_CALL,
            })
          ).text,
        ),
    },
    {
      key: "modern",
      name: "2026-07-28 tools/call (echo, stateless by the protocol)",
      unit: "req/s",
      // Its CPU ratio is a budget verdict: ten times the operations (CPU_VERDICT_SCALE).
      scale: CPU_VERDICT_SCALE,
      // The floor parses the same body (with its _meta envelope) and headers.
      floor: async () => expectEcho((await send(floor, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
      ours: async () => expectEcho((await send(demo, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
      // The same request to the same tool under `agents`' createMcpHandler (its own Worker, with
      // nodejs_compat, its own workerd process): the budget is mcp-edge ≥ 1.5 × its throughput.
      references: agents
        ? [
            {
              key: "agents",
              name: `agents ${versionOf("agents")} createMcpHandler (stateless, same echo tool)`,
              pids: pids.agents,
              operation: async () =>
                expectEcho((await send(agents, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
            },
          ]
        : [],
    },
    {
      key: "mrtr",
      name: "2026-07-28 MRTR round (ask + retry with the answer), vs one floor call",
      unit: "rounds/s",
      scale: CPU_VERDICT_SCALE,
      floor: floorEcho,
      ours: async () => mrtrRound(demo),
    },
  ];
}
