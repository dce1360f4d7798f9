/**
 * A vendor extension on the public extension API (test/servers/extensions/entry.ts), through the
 * Worker's front door in both eras: its methods answered with the gate on the client's declaration
 * (2026-07-28: 400 -32021; a 2025 session: -32601), params checked (-32602 naming the field),
 * middleware, a rate limit and operation events around them, an interactive method's elicitation
 * (2026: MRTR inputResponses; 2025: the session's SSE stream), its own server notification, and a
 * client notification heard (or dropped) in both eras.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { envelope, expect2026Error, expectComplete, expectInputRequired, MODERN, post2026 } from "../helpers/era-2026";
import { initializeParams, post, STATELESS } from "../helpers/mcp";
import { answer, isNotification, isRequest, send, sseOf, startSession, type Session } from "../helpers/session";
import { isResponseTo } from "../helpers/sse";
import { events, heard, NOTES, trail } from "../servers/extensions/entry";
import { finished } from "../servers/operate/memory-tracer";

const DECLARED = { extensions: { [NOTES]: {} } };
const SEEN = "notifications/com.example/notes/seen";

type Reply = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

async function rpc(res: Response): Promise<Reply> {
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
}

/** A 2025-11-25 session's request, answered as JSON (optionally with extra headers). */
function sessionRequest(s: Session, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return post({ jsonrpc: "2.0", id: 1, method, params }, { sessionId: s.sessionId, version: s.version, headers });
}

/** A 2026-07-28 notification with its envelope, as a conforming client posts it. */
function notify2026(params: Record<string, unknown>, capabilities: Record<string, unknown>): Promise<Response> {
  return post(
    { jsonrpc: "2.0", method: SEEN, params: { ...params, _meta: envelope(capabilities) } },
    { headers: { "MCP-Protocol-Version": MODERN, "Mcp-Method": SEEN } },
  );
}

// The first request loads the Worker: outside any one test's time budget.
beforeAll(async () => {
  await post2026("server/discover");
}, 30_000);

beforeEach(() => {
  trail.length = 0;
  heard.length = 0;
});

describe("declaring the extension", () => {
  it("lists it with its settings in server/discover, and in a 2025-11-25 initialize only for a client that declared it", async () => {
    const discovered = await expectComplete(await post2026("server/discover"));
    expect((discovered.capabilities as { extensions: Record<string, unknown> }).extensions[NOTES]).toEqual({ maxLength: 140 });
    const init = async (capabilities: Record<string, unknown>) => {
      const res = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25", capabilities) });
      return ((await res.json()) as { result: { capabilities: { extensions?: Record<string, unknown> } } }).result.capabilities;
    };
    expect((await init(DECLARED)).extensions).toEqual({ [NOTES]: { maxLength: 140 } });
    expect((await init({})).extensions).toBeUndefined();
  });
});

describe("a custom method on 2026-07-28", () => {
  it("answers a client that declared the extension, through the middleware, with ctx.request", async () => {
    const res = await post2026("com.example/notes/add", { text: "buy milk" }, { capabilities: DECLARED, headers: { "X-Tenant": "acme" } });
    const result = await expectComplete(res);
    expect(result).toMatchObject({ added: "buy milk", era: "2026", tenant: "acme", resultType: "complete" });
    expect(trail).toEqual(["mw>com.example/notes/add", "<mw"]);
  });

  it("refuses a client that did not declare it with 400 -32021 naming the extension", async () => {
    const body = await expect2026Error(await post2026("com.example/notes/add", { text: "buy milk" }), 400, -32021);
    expect(body.error?.data).toEqual({ requiredCapabilities: { extensions: { [NOTES]: {} } } });
    expect(body.error?.message).toContain(`"${NOTES}" extension`);
  });

  it("refuses params its zod schema rejects with -32602 naming the field", async () => {
    const body = await expect2026Error(await post2026("com.example/notes/add", { text: "" }, { capabilities: DECLARED }), 200, -32602);
    expect(body.error?.message).toMatch(/^Invalid params for com\.example\/notes\/add: \/text: /);
  });

  it("refuses params its JSON Schema rejects with -32602 naming the field, and serves an ungated method to anyone", async () => {
    const body = await expect2026Error(await post2026("com.example/echo", { word: 5 }), 200, -32602);
    expect(body.error?.message).toMatch(/^Invalid params for com\.example\/echo: \/word: /);
    expect(await expectComplete(await post2026("com.example/echo", { word: "hi" }))).toMatchObject({ word: "hi" });
  });

  it("is counted by the operation events like a tool call", async () => {
    events.length = 0;
    await expectComplete(await post2026("com.example/echo", { word: "counted" }));
    expect(events).toEqual([expect.objectContaining({ place: "worker", method: "com.example/echo", outcome: "ok", doRequests: 0 })]);
  });

  it("is limited by a rate limit rule matching its method (429 -31003 on the third call)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post2026("com.example/notes/limited", {}, { capabilities: DECLARED })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("elicits by MRTR, then answers on the retry with its own notification on the response's stream", async () => {
    const capabilities = { ...DECLARED, elicitation: { form: {} } };
    const first = await expectInputRequired(await post2026("com.example/notes/confirm", { text: "pay rent" }, { capabilities }));
    const [key, ask] = Object.entries(first.inputRequests)[0] ?? [];
    expect(ask?.method).toBe("elicitation/create");
    expect(ask?.params.message).toBe('Save "pay rent"?');
    const retry = await post2026(
      "com.example/notes/confirm",
      {
        text: "pay rent",
        requestState: first.requestState,
        inputResponses: { [key as string]: { action: "accept", content: { save: true } } },
      },
      { capabilities },
    );
    const seen = await sseOf(retry).until(isResponseTo(1));
    expect(seen.find(isNotification("notifications/com.example/notes/saved"))?.json?.params).toEqual({ text: "pay rent", saved: true });
    expect(seen.at(-1)?.json?.result).toMatchObject({ saved: true, resultType: "complete" });
  });

  it("asks the client a request of the extension's own by MRTR, and gets its answer as sent", async () => {
    const first = await expectInputRequired(await post2026("com.example/notes/sync", {}, { capabilities: DECLARED }));
    const [key, ask] = Object.entries(first.inputRequests)[0] ?? [];
    expect(ask).toEqual({ method: "com.example/notes/list", params: { since: 0 } });
    const retry = await post2026(
      "com.example/notes/sync",
      { requestState: first.requestState, inputResponses: { [key as string]: { notes: ["a", "b", "c"] } } },
      { capabilities: DECLARED },
    );
    expect(await expectComplete(retry)).toMatchObject({ count: 3 });
  });

  it("answers 404 -32601 for a method no server defined", async () => {
    await expect2026Error(await post2026("com.example/notes/nothing", {}, { capabilities: DECLARED }), 404, -32601);
  });
});

describe("a custom method in a 2025-11-25 session", () => {
  it("answers in the Worker for a session whose client declared the extension, through the middleware", async () => {
    const s = await startSession("2025-11-25", DECLARED);
    const reply = await rpc(await sessionRequest(s, "com.example/notes/add", { text: "call mom" }, { "X-Tenant": "acme" }));
    expect(reply.result).toEqual({ added: "call mom", era: "2025", tenant: "acme" });
    expect(trail).toEqual(["mw>com.example/notes/add", "<mw"]);
  });

  it("is -32601 naming the extension for a session whose client did not declare it", async () => {
    const s = await startSession("2025-11-25");
    const reply = await rpc(await sessionRequest(s, "com.example/notes/add", { text: "call mom" }));
    expect(reply.error?.code).toBe(-32601);
    expect(reply.error?.message).toContain("initialize's capabilities.extensions");
    // The middleware wrapped the call; the refusal came from inside its next().
    expect(trail).toEqual(["mw>com.example/notes/add"]);
  });

  it("refuses bad params with -32602 naming the field", async () => {
    const s = await startSession("2025-11-25", DECLARED);
    const reply = await rpc(await sessionRequest(s, "com.example/notes/add", { text: 7 }));
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(/^Invalid params for com\.example\/notes\/add: \/text: /);
  });

  it("elicits over the session's stream, then sends its own notification and its result there", async () => {
    const s = await startSession("2025-11-25", { ...DECLARED, elicitation: { form: {} } });
    const stream = sseOf(await sessionRequest(s, "com.example/notes/confirm", { text: "water plants" }));
    const ask = (await stream.until(isRequest("elicitation/create"))).at(-1)?.json;
    expect((ask?.params as { message: string }).message).toBe('Save "water plants"?');
    expect((await answer(s, ask?.id, { action: "accept", content: { save: true } })).status).toBe(202);
    const rest = await stream.until(isResponseTo(1));
    expect(rest.find(isNotification("notifications/com.example/notes/saved"))?.json?.params).toEqual({ text: "water plants", saved: true });
    expect(rest.at(-1)?.json?.result).toEqual({ saved: true });
    expect(trail).toEqual(["mw>com.example/notes/confirm", "<mw"]);
  });

  it("is traced and counted where the Worker forwards it and in the session object, one span the parent of the other", async () => {
    const s = await startSession("2025-11-25", { ...DECLARED, elicitation: { form: {} } });
    events.length = 0;
    finished.length = 0;
    const stream = sseOf(await sessionRequest(s, "com.example/notes/confirm", { text: "traced" }));
    const ask = (await stream.until(isRequest("elicitation/create"))).at(-1)?.json;
    await answer(s, ask?.id, { action: "decline" });
    expect((await stream.until(isResponseTo(1))).at(-1)?.json?.result).toEqual({ saved: false });
    // The client's answer is an operation of its own; the method's are one in each place.
    const confirms = () => events.filter((e) => e.method === "com.example/notes/confirm");
    await expect.poll(() => confirms().length).toBe(2);
    expect(confirms().map((e) => [e.place, e.outcome])).toEqual(
      expect.arrayContaining([
        ["forward", "ok"],
        ["session", "ok"],
      ]),
    );
    const spans = finished.filter((span) => span.name.startsWith("com.example/notes/confirm"));
    expect(spans).toHaveLength(2);
    const [first, second] = spans as [(typeof spans)[0], (typeof spans)[0]];
    const worker = first.parentSpanId === second.spanId ? second : first;
    const object = worker === first ? second : first;
    expect(object.parentSpanId).toBe(worker.spanId);
  });

  it("asks the client a request of the extension's own over the session's stream", async () => {
    const s = await startSession("2025-11-25", DECLARED);
    const stream = sseOf(await sessionRequest(s, "com.example/notes/sync", {}));
    const ask = (await stream.until(isRequest("com.example/notes/list"))).at(-1)?.json;
    expect(ask?.params).toEqual({ since: 0 });
    expect((await answer(s, ask?.id, { notes: ["a", "b"] })).status).toBe(202);
    expect((await stream.until(isResponseTo(1))).at(-1)?.json?.result).toEqual({ count: 2 });
  });

  it("serves ungated methods without a session and refuses gated ones there (no capabilities were negotiated)", async () => {
    const stateless = (body: unknown) => post(body, { url: STATELESS, version: "2025-11-25" });
    const echo = await rpc(await stateless({ jsonrpc: "2.0", id: 1, method: "com.example/echo", params: { word: "hi" } }));
    expect(echo.result).toEqual({ word: "hi" });
    const gated = await rpc(await stateless({ jsonrpc: "2.0", id: 1, method: "com.example/notes/add", params: { text: "x" } }));
    expect(gated.error?.code).toBe(-32601);
  });
});

describe("a client notification of the extension", () => {
  it("is heard on 2026-07-28 from a client that declared the extension, and dropped (still 202) otherwise or with bad params", async () => {
    expect((await notify2026({ note: "n1" }, DECLARED)).status).toBe(202);
    expect((await notify2026({ note: "n2" }, {})).status).toBe(202);
    expect((await notify2026({ note: 5 }, DECLARED)).status).toBe(202);
    expect(heard).toEqual([{ note: "n1", era: "2026", session: undefined }]);
  });

  it("is heard in the session object of a 2025 session whose client declared it, and not in one whose client did not", async () => {
    const declared = await startSession("2025-11-25", DECLARED);
    const other = await startSession("2025-11-25");
    expect((await send(declared, { jsonrpc: "2.0", method: SEEN, params: { note: "n3" } })).status).toBe(202);
    expect((await send(other, { jsonrpc: "2.0", method: SEEN, params: { note: "n4" } })).status).toBe(202);
    expect(heard).toEqual([{ note: "n3", era: "2025", session: declared.sessionId }]);
  });
});
