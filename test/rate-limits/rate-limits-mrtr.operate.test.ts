/**
 * A rate limit counts calls, not rounds: an interactive tool that asks the user once is one call
 * on 2026-07-28 (two MRTR rounds: `input_required`, then the retry with the answer) as on a 2025
 * session (one POST, the answer posted back). Under "3 a minute" both eras serve three such calls
 * and refuse the fourth before it asks; a retry whose `requestState` does not verify counts as a call.
 */
import { describe, expect, it } from "vitest";
import { envelope, headers2026 } from "../helpers/era-2026";
import { startSession, sseOf } from "../helpers/session";
import { isRequest } from "../helpers/session";
import { isResponseTo } from "../helpers/sse";
import { postRpc, textOf, type Answer, type Json } from "../operate/helpers";
import { inOneWindow } from "../helpers/rate-window";

const TOOL = "limited_asks";
const ELICITATION = { elicitation: {} };
const ANSWER = { action: "accept", content: { name: "Ada" } };

let address = 0;
/** A client address of its own (the rule's default key): each test spends a fresh budget. */
function client(): Record<string, string> {
  address++;
  return { "CF-Connecting-IP": `198.51.100.${address}` };
}

/** One 2026-07-28 tools/call of the asking tool; `retry`: the previous round's requestState and the user's answers. */
function call2026(id: number, headers: Record<string, string>, retry?: Json): Promise<Response> {
  const params = { name: TOOL, arguments: {} };
  const body = { jsonrpc: "2.0", id, method: "tools/call", params: { ...params, ...retry, _meta: envelope(ELICITATION) } };
  return postRpc(body, { ...headers2026("tools/call", params), ...headers });
}

/** A whole 2026-07-28 call: the first round asks, the retry brings the answer; returns the retry's HTTP status and answer. */
async function askAndAnswer2026(id: number, headers: Record<string, string>): Promise<{ status: number; answer: Answer }> {
  const first = await call2026(id, headers);
  const asked = (await first.json()) as Answer;
  if (first.status !== 200) return { status: first.status, answer: asked };
  expect(asked.result?.resultType).toBe("input_required");
  const keys = Object.keys(asked.result?.inputRequests as Json);
  const inputResponses = Object.fromEntries(keys.map((key) => [key, ANSWER]));
  const retry = await call2026(id, headers, { requestState: asked.result?.requestState, inputResponses });
  return { status: retry.status, answer: (await retry.json()) as Answer };
}

describe("a rate limit on an interactive tool", () => {
  it("serves three asking calls a minute on 2026-07-28, each completed after the user answered, and refuses the fourth", async () => {
    const fourth = await inOneWindow(60, async () => {
      const headers = client();
      for (let id = 1; id <= 3; id++) {
        const { status, answer } = await askAndAnswer2026(id, headers);
        expect({ status, text: textOf(answer) }).toEqual({ status: 200, text: "hello Ada" });
      }
      return call2026(4, headers);
    });
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as Answer).error).toMatchObject({ code: -31003, data: { retryAfterSeconds: 60 } });
  });

  it("serves three asking calls a minute on a 2025 session, each answered on its stream, and refuses the fourth", async () => {
    const fourth = await inOneWindow(60, async () => {
      const headers = client();
      const s = await startSession("2025-11-25", ELICITATION);
      const session = { ...headers, "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version };
      const call = (id: number) => postRpc({ jsonrpc: "2.0", id, method: "tools/call", params: { name: TOOL, arguments: {} } }, session);
      for (let id = 1; id <= 3; id++) {
        const stream = sseOf(await call(id));
        const ask = (await stream.until(isRequest("elicitation/create"))).at(-1);
        expect((await postRpc({ jsonrpc: "2.0", id: ask?.json?.id, result: ANSWER }, session)).status).toBe(202);
        const done = (await stream.until(isResponseTo(id))).at(-1)?.json as Answer;
        expect(textOf(done)).toBe("hello Ada");
      }
      return call(4);
    });
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as Answer).error).toMatchObject({ code: -32003, data: { retryAfterSeconds: 60 } });
  });

  it("counts a 2026-07-28 retry whose requestState does not verify as a new call", async () => {
    const fourth = await inOneWindow(60, async () => {
      const headers = client();
      const first = (await (await call2026(1, headers)).json()) as Answer;
      const state = String(first.result?.requestState);
      // A forged state, twice: each is refused for itself and spends the budget like a new call.
      const forged = { requestState: `${state.slice(0, -2)}AA`, inputResponses: { "0": ANSWER } };
      for (let id = 2; id <= 3; id++) {
        const refused = await call2026(id, headers, forged);
        expect({ status: refused.status, code: ((await refused.json()) as Answer).error?.code }).toEqual({ status: 200, code: -32602 });
      }
      return call2026(4, headers, forged);
    });
    expect(fourth.status).toBe(429);
  });
});
