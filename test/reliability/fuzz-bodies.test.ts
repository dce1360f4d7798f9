/**
 * Property: whatever body a client POSTs in a live session — mutated MCP requests with a wrong
 * type at any field, missing or extra or duplicated keys, huge number literals, batches of mixed
 * junk, invalid UTF-8, nesting 100,000 deep — the answer is the one docs/errors.md documents for it,
 * never a 5xx, never an internal message, and the session keeps working (ping in the Worker
 * lane every case, an interactive call in the session object every tenth case and at the end).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import type { Session } from "../helpers/session";
import { startSession } from "./support/direct";
import { hostileBody, junkValue, type FuzzBody } from "./support/bodies";
import { expectSessionAlive, postBytes } from "./support/client";
import {
  CODE,
  classifyBody,
  expectDocumentedResponse,
  expectInvalidEntryAnswer,
  expectRefusal,
  isInteractiveCall,
  type Entry,
  type RpcResponse,
} from "./support/documented";
import { cooperativeAnswer, driveStream, idKey } from "./support/drive";
import { leaksIn } from "./support/leaks";
import { fuzzParameters, reportFigures } from "./support/settings";

const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
type Version = (typeof VERSIONS)[number];

/** The client's answer to a server request: cooperative, a result of junk, or an error. */
type Answer =
  | { kind: "cooperative" }
  | { kind: "junk"; result: Record<string, unknown> }
  | { kind: "error"; code: number; message: string };
const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc.constant<Answer>({ kind: "cooperative" }),
  fc
    .dictionary(fc.constantFrom("role", "model", "content", "action", "roots", "x", "_meta"), junkValue)
    .map((result): Answer => ({ kind: "junk", result })),
  fc.record({ kind: fc.constant("error" as const), code: fc.integer(), message: fc.string({ maxLength: 20 }) }),
);

function answerBody(answers: Answer[]) {
  return (request: Record<string, unknown>, index: number): unknown => {
    const a = answers[index] ?? { kind: "cooperative" };
    if (a.kind === "junk") return { jsonrpc: "2.0", id: request.id, result: a.result };
    if (a.kind === "error") return { jsonrpc: "2.0", id: request.id, error: { code: a.code, message: a.message } };
    return cooperativeAnswer(request);
  };
}

const sessions = {} as Record<Version, Session>;
const figures = { cases: 0, json: 0, sse: 0, accepted: 0, refused: 0, serverRequestsAnswered: 0, cancelledByClient: 0, livenessChecks: 0 };
let consoleError: MockInstance;

beforeAll(async () => {
  for (const v of VERSIONS) sessions[v] = await startSession(v, { sampling: {}, elicitation: {}, roots: { listChanged: true } });
  consoleError = vi.spyOn(console, "error");
});

afterAll(() => {
  consoleError.mockRestore();
  reportFigures("fuzz-bodies", figures);
});

function sseOrJson(res: Response): "sse" | "json" {
  const type = res.headers.get("Content-Type");
  expect(["application/json", "text/event-stream"], `Content-Type of a ${res.status}`).toContain(type);
  return type === "text/event-stream" ? "sse" : "json";
}

/** Checks the answer to one body against docs/errors.md, playing the client on SSE answers. */
async function expectDocumentedAnswer(s: Session, body: FuzzBody, res: Response, answers: Answer[]): Promise<void> {
  const parts = [body.text];
  expect(res.status, body.label).toBeLessThan(500);
  const c = classifyBody(body.text);
  if (c.kind === "not-json") return void (await expectRefusal(res, 400, CODE.PARSE_ERROR, [null], parts), figures.refused++);
  if (c.kind === "empty-batch") return void (await expectRefusal(res, 400, CODE.INVALID_REQUEST, [null], parts), figures.refused++);

  const entries = c.kind === "single" ? [c.entry] : c.entries;
  const requests = entries.filter((e): e is Extract<Entry, { kind: "request" }> => e.kind === "request");
  const invalid = entries.filter((e): e is Extract<Entry, { kind: "invalid" }> => e.kind === "invalid");

  if (c.kind === "single" && c.entry.kind === "invalid") {
    figures.refused++;
    return void (await expectRefusal(res, 400, c.entry.code ?? CODE.INVALID_REQUEST, [null, c.entry.id], parts));
  }
  if (c.kind === "batch") {
    const init = requests.find((r) => r.method === "initialize");
    if (init) return void (await expectRefusal(res, 400, CODE.INVALID_REQUEST, [null, init.id], parts), figures.refused++);
    if (s.version >= "2025-06-18") return void (await expectRefusal(res, 400, CODE.INVALID_REQUEST, [null], parts), figures.refused++);
  }
  if (requests.length === 0 && invalid.length === 0) {
    figures.accepted++;
    expect(res.status, body.label).toBe(202);
    expect(await res.text()).toBe("");
    return;
  }
  expect(res.status, body.label).toBe(200);

  if (c.kind === "single" && requests[0]?.method === "initialize") {
    figures.json++;
    const text = await res.text();
    expect(sseOrJson(res)).toBe("json");
    expect(leaksIn(text, parts, true)).toEqual([]);
    const reply = JSON.parse(text) as RpcResponse;
    expectDocumentedResponse(reply, requests[0]);
    if (reply.result) expect(res.headers.get("Mcp-Session-Id")).toMatch(/^[0-9a-f]{64}$/);
    return;
  }

  let replies: RpcResponse[];
  const cancelled = new Set<string>();
  if (sseOrJson(res) === "sse") {
    figures.sse++;
    expect(requests.some(isInteractiveCall), "only interactive calls are answered with SSE").toBe(true);
    const driven = await driveStream(
      s,
      res,
      requests.map((r) => r.id),
      answerBody(answers),
    );
    figures.serverRequestsAnswered += driven.serverRequests;
    figures.cancelledByClient += driven.cancelled.size;
    for (const key of driven.cancelled) cancelled.add(key);
    for (const e of driven.events) expect(leaksIn(e.data, parts, true), `event ${e.id}`).toEqual([]);
    replies = [...driven.responses.values()].flat();
  } else {
    figures.json++;
    expect(requests.some(isInteractiveCall), "an interactive call is answered with SSE").toBe(false);
    const text = await res.text();
    expect(leaksIn(text, parts, true)).toEqual([]);
    const parsed = JSON.parse(text) as RpcResponse | RpcResponse[];
    expect(Array.isArray(parsed), "a batch gets an array, a single message an object").toBe(c.kind === "batch");
    replies = Array.isArray(parsed) ? parsed : [parsed];
  }

  // -32600 answers belong to the invalid entries; every other reply answers a request.
  // A too deep entry's -32602 says so (docs/configuration.md "Limits"); a request's own -32602 never does.
  const isInvalidAnswer = (r: RpcResponse) =>
    r.error?.code === CODE.INVALID_REQUEST || (r.error?.code === CODE.INVALID_PARAMS && r.error.message.includes("nests deeper"));
  const forInvalid = replies.filter(isInvalidAnswer);
  expect(forInvalid.length, "one -32600 (or too-deep -32602) per invalid entry").toBe(invalid.length);
  forInvalid.forEach((r) =>
    expectInvalidEntryAnswer(
      r,
      invalid.find((e) => e.id === r.id && (e.code ?? CODE.INVALID_REQUEST) === r.error?.code) ?? {
        kind: "invalid",
        id: null,
        code: r.error?.code,
      },
    ),
  );
  const forRequests = replies.filter((r) => !isInvalidAnswer(r));
  // Requests sharing an id (a client's mistake) get one response each; each must fit one of them.
  for (const key of new Set(requests.map((r) => idKey(r.id)))) {
    const group = requests.filter((r) => idKey(r.id) === key);
    const mine = forRequests.filter((r) => idKey(r.id) === key);
    if (cancelled.has(key)) expect(mine.length).toBeLessThanOrEqual(group.length);
    else expect(mine.length, `responses to ${key} (${group.map((r) => r.method).join(", ")})`).toBe(group.length);
    for (const reply of mine) {
      const fits = group.filter((request) => {
        try {
          expectDocumentedResponse(reply, request);
          return true;
        } catch {
          return false;
        }
      });
      if (fits.length === 0) expectDocumentedResponse(reply, group[0] as (typeof group)[number]);
    }
  }
  expect(
    forRequests.every((r) => requests.some((q) => idKey(q.id) === idKey(r.id))),
    "no response to a request that was not sent",
  ).toBe(true);
}

describe("fuzzed POST bodies in live sessions of every protocol revision", () => {
  it("answers as documented, never 5xx, never leak internals, and leave the session working", { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...VERSIONS),
        hostileBody,
        fc
          .array(answer, { maxLength: 3 })
          .map((answers) => Object.assign(answers, { [fc.toStringMethod]: () => JSON.stringify(answers).slice(0, 300) })),
        async (version, body, answers) => {
          figures.cases++;
          const s = sessions[version];
          consoleError.mockClear();
          await expectDocumentedAnswer(s, body, await postBytes(s, body.bytes), answers);
          expect(
            consoleError.mock.calls.map((c) => String(c[0])),
            "the runtime logged an internal failure",
          ).toEqual([]);
          figures.livenessChecks++;
          await expectSessionAlive(s, figures.cases % 10 === 0);
        },
      ),
      fuzzParameters(3000),
    );
    for (const v of VERSIONS) await expectSessionAlive(sessions[v], true);
  });
});
