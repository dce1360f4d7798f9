// Bench scenarios of the Tasks extension: creating a task (stored by its own object before the
// answer) and tasks/get of a completed one, against one floor call and a plain 2026-07-28 call.

import { send } from "../harness/load.mjs";
import { createBenchTask, ECHO_CALL, expectEcho, getBenchTask, MODERN_ECHO_CALL, MODERN_HEADERS, POST_HEADERS } from "./messages.mjs";

/** The scenarios, in the order the report lists them; `pids` bills each side's CPU to its own workerd processes. */
export function taskScenarios(_opts, { demo, floor, pids }) {
  const floorEcho = async () => expectEcho((await send(floor, { path: "/mcp", headers: POST_HEADERS, body: ECHO_CALL })).text);
  return [
    {
      key: "tasks-create",
      name: "tasks: tools/call creating a task (stored by its own object before the answer), vs one floor call",
      unit: "tasks/s",
      floor: floorEcho,
      ours: async () => createBenchTask(demo),
    },
    {
      key: "tasks-get",
      name: "tasks: tasks/get of a completed task (its object answers from storage), vs one floor call",
      unit: "req/s",
      setup: async () => {
        const taskId = await createBenchTask(demo);
        for (let i = 0; i < 200 && (await getBenchTask(demo, taskId)) === "working"; i++) await new Promise((r) => setTimeout(r, 10));
        return taskId;
      },
      floor: floorEcho,
      ours: async (_client, taskId) => {
        if ((await getBenchTask(demo, taskId)) !== "completed") throw new Error("tasks/get: the task is not completed");
      },
      // tasks/get against a plain 2026-07-28 call to the same Worker: the cost of the object hop.
      references: [
        {
          key: "plain",
          name: "mcp-edge 2026-07-28 tools/call (echo), the plain call tasks/get is compared with",
          pids: pids.demo,
          operation: async () => expectEcho((await send(demo, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
        },
      ],
    },
  ];
}
