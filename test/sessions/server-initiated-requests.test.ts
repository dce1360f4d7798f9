import { describe, expect, it } from "vitest";
import { isResponseTo, type SseEvent, type SseReader } from "../helpers/sse";
import { answer, callOnStream, isRequest, isToolError, send, startSession, toolText, type Session } from "../helpers/session";

const SAMPLED = { role: "assistant", content: { type: "text", text: "hello from the model" }, model: "test-model" };

/** Starts an interactive call and reads its stream up to the server's request. */
async function callUntilRequest(
  s: Session,
  id: number,
  tool: string,
  args: Record<string, unknown>,
  method: string,
): Promise<{ stream: SseReader; request: SseEvent }> {
  const stream = await callOnStream(s, id, tool, args);
  const request = (await stream.until(isRequest(method))).at(-1) as SseEvent;
  return { stream, request };
}

/** Reads the rest of a call's stream; asserts it ends with the call's response and returns that event. */
async function responseOf(stream: SseReader, id: number): Promise<SseEvent> {
  const events = await stream.all();
  expect(events.at(-1)?.json?.id).toBe(id);
  return events.at(-1) as SseEvent;
}

describe("server-to-client requests (sampling, elicitation, roots)", () => {
  it("sends sampling/createMessage with a string id on the call's stream and returns the client's answer as the tool result", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_sampling", { prompt: "What is 2+2?" }, "sampling/createMessage");
    expect(typeof request.json?.id).toBe("string");
    expect(request.json?.params).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "What is 2+2?" } }],
      maxTokens: 100,
    });

    expect((await answer(s, request.json?.id, SAMPLED)).status).toBe(202);
    const response = await responseOf(stream, 1);
    expect(isToolError(response)).toBe(false);
    expect(toolText(response)).toBe("LLM response: hello from the model");
  });

  it.each([
    [
      "accept",
      { action: "accept", content: { username: "ada", email: "ada@example.com" } },
      'action=accept, content={"username":"ada","email":"ada@example.com"}',
    ],
    ["decline", { action: "decline" }, "action=decline, content=null"],
    ["cancel", { action: "cancel" }, "action=cancel, content=null"],
  ])("sends elicitation/create and reports the user's %s", async (_action, result, expected) => {
    const s = await startSession("2025-06-18", { elicitation: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_elicitation", { message: "Who are you?" }, "elicitation/create");
    expect(typeof request.json?.id).toBe("string");
    expect(request.json?.params).toMatchObject({
      message: "Who are you?",
      requestedSchema: { type: "object", required: ["username", "email"] },
    });

    expect((await answer(s, request.json?.id, result)).status).toBe(202);
    expect(toolText(await responseOf(stream, 1))).toBe(`User response: ${expected}`);
  });

  it("sends roots/list and returns the client's roots", async () => {
    const s = await startSession("2025-06-18", { roots: { listChanged: true } });
    const { stream, request } = await callUntilRequest(s, 1, "ask_roots", {}, "roots/list");
    expect(typeof request.json?.id).toBe("string");

    const roots = { roots: [{ uri: "file:///work", name: "work" }, { uri: "file:///tmp" }] };
    expect((await answer(s, request.json?.id, roots)).status).toBe(202);
    expect(toolText(await responseOf(stream, 1))).toBe('["file:///work","file:///tmp"]');
  });

  it.each([
    ["test_sampling", { prompt: "hi" }, "sampling"],
    ["test_elicitation", { message: "hi" }, "elicitation"],
    ["ask_roots", {}, "roots"],
  ])("fails %s with a tool error naming the undeclared capability, without sending a request", async (tool, args, capability) => {
    const s = await startSession("2025-06-18", {});
    const events = await (await callOnStream(s, 1, tool, args)).all();
    expect(events).toHaveLength(1);
    expect(events[0]?.json?.id).toBe(1);
    expect(isToolError(events[0])).toBe(true);
    expect(toolText(events[0])).toContain(`"${capability}" capability`);
  });

  it("uses a distinct id for each server request, never the client's", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const one = await callUntilRequest(s, 1, "test_sampling", { prompt: "a" }, "sampling/createMessage");
    const two = await callUntilRequest(s, 2, "test_sampling", { prompt: "b" }, "sampling/createMessage");
    expect(one.request.json?.id).not.toBe(two.request.json?.id);

    await answer(s, two.request.json?.id, { ...SAMPLED, content: { type: "text", text: "two" } });
    await answer(s, one.request.json?.id, { ...SAMPLED, content: { type: "text", text: "one" } });
    expect(toolText(await responseOf(one.stream, 1))).toBe("LLM response: one");
    expect(toolText(await responseOf(two.stream, 2))).toBe("LLM response: two");
  });

  it.each([
    ["an unknown string id", "s-00000000-1"],
    ["a numeric id", 1],
    ["a null id on an error", null],
  ])("accepts and ignores an answer with %s (202), leaving the pending request to its real answer", async (_what, id) => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_sampling", { prompt: "hi" }, "sampling/createMessage");
    const stray =
      id === null
        ? await send(s, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "stray" } })
        : await answer(s, id, { ...SAMPLED, content: { type: "text", text: "stray" } });
    expect(stray.status).toBe(202);

    await answer(s, request.json?.id, SAMPLED);
    expect(toolText(await responseOf(stream, 1))).toBe("LLM response: hello from the model");
  });

  it("ignores an answer carrying another session's request id", async () => {
    const a = await startSession("2025-06-18", { sampling: {} });
    const b = await startSession("2025-06-18", { sampling: {} });
    const inA = await callUntilRequest(a, 1, "test_sampling", { prompt: "a" }, "sampling/createMessage");
    const inB = await callUntilRequest(b, 1, "test_sampling", { prompt: "b" }, "sampling/createMessage");

    expect((await answer(b, inA.request.json?.id, { ...SAMPLED, content: { type: "text", text: "for a, sent to b" } })).status).toBe(202);
    await answer(b, inB.request.json?.id, { ...SAMPLED, content: { type: "text", text: "for b" } });
    await answer(a, inA.request.json?.id, { ...SAMPLED, content: { type: "text", text: "for a" } });
    expect(toolText(await responseOf(inB.stream, 1))).toBe("LLM response: for b");
    expect(toolText(await responseOf(inA.stream, 1))).toBe("LLM response: for a");
  });

  it("ignores a second answer to a request already answered", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_sampling", { prompt: "hi" }, "sampling/createMessage");
    await answer(s, request.json?.id, SAMPLED);
    const rest = await stream.until(isResponseTo(1));
    expect((await answer(s, request.json?.id, { ...SAMPLED, content: { type: "text", text: "again" } })).status).toBe(202);
    expect(toolText(rest.at(-1))).toBe("LLM response: hello from the model");
    expect(await stream.next()).toBeUndefined();
  });

  it("refuses a server request beyond the pending limit (32) with a clear tool error, without sending it", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const waiting: { stream: SseReader; request: SseEvent }[] = [];
    for (let id = 1; id <= 32; id++)
      waiting.push(await callUntilRequest(s, id, "test_sampling", { prompt: `p${id}` }, "sampling/createMessage"));

    const refused = await (await callOnStream(s, 33, "test_sampling", { prompt: "one too many" })).all();
    expect(refused).toHaveLength(1);
    expect(isToolError(refused[0])).toBe(true);
    expect(toolText(refused[0])).toMatch(/Too many pending server requests \(limit 32\)/);

    for (const [i, { stream, request }] of waiting.entries()) {
      await answer(s, request.json?.id, SAMPLED);
      expect(toolText(await responseOf(stream, i + 1))).toBe("LLM response: hello from the model");
    }
  });

  it("turns the client's error response into a tool error result", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_sampling", { prompt: "hi" }, "sampling/createMessage");
    const refusal = await send(s, { jsonrpc: "2.0", id: request.json?.id, error: { code: -1, message: "User rejected sampling request" } });
    expect(refusal.status).toBe(202);

    const response = await responseOf(stream, 1);
    expect(isToolError(response)).toBe(true);
    expect(toolText(response)).toContain("User rejected sampling request");
  });

  it("turns a malformed sampling answer into a tool error that names the client's mistake", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_sampling", { prompt: "hi" }, "sampling/createMessage");
    expect((await answer(s, request.json?.id, {})).status).toBe(202);

    const response = await responseOf(stream, 1);
    expect(isToolError(response)).toBe(true);
    expect(toolText(response)).toBe(
      `sampling/createMessage: the client's answer is not a valid result: "role" must be "user" or "assistant"`,
    );
  });

  it("turns an elicitation answer with an unknown action into a tool error", async () => {
    const s = await startSession("2025-06-18", { elicitation: {} });
    const { stream, request } = await callUntilRequest(s, 1, "test_elicitation", { message: "Who?" }, "elicitation/create");
    expect((await answer(s, request.json?.id, { action: "maybe" })).status).toBe(202);

    const response = await responseOf(stream, 1);
    expect(isToolError(response)).toBe(true);
    expect(toolText(response)).toContain('"action" must be "accept", "decline" or "cancel"');
  });
});
