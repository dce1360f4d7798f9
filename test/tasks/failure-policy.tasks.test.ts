/**
 * The one failure policy of a tool call, in the three places a tool runs: the Worker (a simple
 * tool in a 2025 session), the session object (an interactive tool in a 2025 session, answered
 * over SSE) and the task object (a 2026-07-28 call that declared the Tasks extension).
 * Only a ToolError's or an RpcError's text reaches the client; any other exception is logged with
 * a reference the client is given instead (2025-06-18 "Tools" > Error Handling; ext-tasks: a
 * JSON-RPC error fails the task, a tool error completes it with `isError`).
 */
import { describe, expect, it } from "vitest";
import { isResponseTo } from "../helpers/sse";
import { callOnStream, send, startSession, type Session } from "../helpers/session";
import { FAILURES } from "../servers/tasks/entry";
import { create, get, until, type Json } from "./helpers";

type Kind = keyof typeof FAILURES;
/** What the client is answered: a tool result, or a JSON-RPC error (a failed task carries it as `error`). */
type Answer = { result: Json } | { error: Json };

const UNEXPECTED =
  /^Tool "fail_thrown_error(_interactive)?" failed unexpectedly \(reference [0-9a-f]{8}\); the server's log has the details\.$/;

/** The answer each kind gets; `task` where the task object's differs (a JSON-RPC error fails the task). */
const EXPECTED: Record<Kind, { sync: (a: Answer) => void; task?: (a: Answer) => void }> = {
  thrown_error: { sync: (a) => expectToolError(a, UNEXPECTED) },
  tool_error: { sync: (a) => expectToolError(a, /^the tool says no$/) },
  rpc_error: {
    sync: (a) => expectToolError(a, /^upstream refused$/),
    task: (a) => expect(a).toEqual({ error: { code: -32603, message: "upstream refused", data: { retryAfterMs: 1000 } } }),
  },
  bad_result: { sync: expectInternalError },
  bad_structured: { sync: (a) => expectToolError(a, /does not match its outputSchema: .*count/) },
};

function expectToolError(answer: Answer, text: RegExp): void {
  expect(answer).toHaveProperty("result");
  const result = (answer as { result: Json }).result;
  expect(result.isError).toBe(true);
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]?.text).toMatch(text);
  expect(JSON.stringify(result)).not.toContain("policy-table secret detail");
}

function expectInternalError(answer: Answer): void {
  expect(answer).toMatchObject({ error: { code: -32603, message: "Internal error" } });
  expect((answer as { error: { data: { reference: string } } }).error.data.reference).toMatch(/^[0-9a-f]{8}$/);
}

const PLACES: Record<string, (kind: Kind) => Promise<Answer>> = {
  async Worker(kind) {
    const s: Session = await startSession("2025-11-25");
    const res = await send(s, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: `fail_${kind}`, arguments: {} } });
    expect(res.headers.get("Content-Type")).toContain("application/json");
    return (await res.json()) as Answer;
  },
  async "session object"(kind) {
    const s: Session = await startSession("2025-11-25");
    const stream = await callOnStream(s, 1, `fail_${kind}_interactive`);
    const events = await stream.until(isResponseTo(1));
    return events.at(-1)?.json as unknown as Answer;
  },
  async "task object"(kind) {
    const { taskId } = (await create(`fail_${kind}`)) as { taskId: string };
    await until(taskId, "completed", "failed");
    const task = await get(taskId);
    return task.status === "failed" ? { error: task.error as Json } : { result: task.result as Json };
  },
};

describe("the failure policy: {thrown Error, ToolError, RpcError, a bad result, a bad structuredContent} × {Worker, session object, task object}", () => {
  for (const kind of Object.keys(FAILURES) as Kind[]) {
    for (const [place, answerIn] of Object.entries(PLACES)) {
      it(`${kind} in the ${place}`, async () => {
        const expected = EXPECTED[kind];
        const check = place === "task object" ? (expected.task ?? expected.sync) : expected.sync;
        check(await answerIn(kind));
      });
    }
  }
});
