/**
 * Every answer a client gives to a server request is checked against the result schema of what
 * was asked before a handler sees it (issue 16, defect 4: `{"roots":[null]}` became the tool
 * result "Cannot read properties of null (reading 'uri')", a text block without `text` became
 * "LLM response: undefined"). Through the front door: each malformed answer becomes a tool
 * error naming the client's mistake, never a JavaScript message. And the validators accept
 * the spec's own examples of both eras (2025 shapes, and 2026-07-28's schema/examples).
 */
/// <reference types="vite/client" />
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkCreateMessageResult, checkElicitResult, checkListRootsResult } from "../../src/mcp/asks/client-answers";
import { RpcError } from "../../src/jsonrpc/errors";
import { isResponseTo, type SseEvent } from "../helpers/sse";
import { isRequest, type Session } from "../helpers/session";
import { callOnStream, post, startSession } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";

const figures = { answersSent: 0, refusedCleanly: 0, leaked: 0, examplesAccepted: 0 };
afterAll(() => reportFigures("hostile-client-answers", figures));

type Asked = { tool: string; args: Record<string, unknown>; method: string; capability: string };
const SAMPLING: Asked = { tool: "test_sampling", args: { prompt: "hi" }, method: "sampling/createMessage", capability: "sampling" };
const ELICIT: Asked = { tool: "test_elicitation", args: { message: "Who?" }, method: "elicitation/create", capability: "elicitation" };
const ROOTS: Asked = { tool: "ask_roots", args: {}, method: "roots/list", capability: "roots" };

/** Runs the tool, answers its server request with `result`, and returns the tool's response event. */
async function answerWith(asked: Asked, result: unknown): Promise<SseEvent> {
  const s: Session = await startSession("2025-06-18", { [asked.capability]: {} });
  const stream = await callOnStream(s, 1, asked.tool, asked.args);
  const request = (await stream.until(isRequest(asked.method))).at(-1) as SseEvent;
  figures.answersSent++;
  expect((await post({ jsonrpc: "2.0", id: request.json?.id, result }, s)).status).toBe(202);
  const events = await stream.all();
  const response = events.find(isResponseTo(1)) as SseEvent;
  expect(response, "the call got its response").toBeDefined();
  return response;
}

function toolOutcome(e: SseEvent): { isError: boolean; text: string } {
  const result = e.json?.result as { isError?: boolean; content?: { text?: string }[] };
  return { isError: result.isError === true, text: result.content?.[0]?.text ?? "" };
}

const LEAKS = /Cannot read|undefined|null \(reading|\[object |is not a function|TypeError/;

const malformed: [string, Asked, unknown, string][] = [
  ["a root that is null", ROOTS, { roots: [null] }, '"roots[0]" must be an object with a string "uri"'],
  ["a root without a uri", ROOTS, { roots: [{ name: "x" }] }, '"roots[0]" must be an object with a string "uri"'],
  ["a root whose name is a number", ROOTS, { roots: [{ uri: "file:///a", name: 7 }] }, '"roots[0].name" must be a string'],
  ["roots that are not a list", ROOTS, { roots: "file:///a" }, '"roots" must be a list'],
  ["no roots at all", ROOTS, {}, '"roots" must be a list'],
  [
    "a text block without text",
    SAMPLING,
    { role: "assistant", model: "m", content: { type: "text" } },
    '"content" (text) needs a string "text"',
  ],
  [
    "an image block without data",
    SAMPLING,
    { role: "assistant", model: "m", content: { type: "image", mimeType: "image/png" } },
    '"content" (image) needs a string "data"',
  ],
  ["an unknown block type", SAMPLING, { role: "assistant", model: "m", content: { type: "hologram" } }, 'unknown type "hologram"'],
  ["content that is null", SAMPLING, { role: "assistant", model: "m", content: null }, '"content" must be an object with a string "type"'],
  ["a list with a null block", SAMPLING, { role: "assistant", model: "m", content: [null] }, '"content[0]" must be an object'],
  ["a model that is a number", SAMPLING, { role: "assistant", model: 3, content: { type: "text", text: "x" } }, '"model" must be a string'],
  [
    "a role that is neither",
    SAMPLING,
    { role: "system", model: "m", content: { type: "text", text: "x" } },
    '"role" must be "user" or "assistant"',
  ],
  [
    "an elicitation field that is an object",
    ELICIT,
    { action: "accept", content: { username: { nested: true }, email: "e" } },
    'content field "username" must be a string, number, boolean or list of strings',
  ],
  ["an elicitation field that is null", ELICIT, { action: "accept", content: { username: null } }, 'content field "username"'],
  ["accepted content that is a list", ELICIT, { action: "accept", content: ["a"] }, 'accepted "content" must be an object'],
  ["an action that is not one of three", ELICIT, { action: "ok" }, '"action" must be "accept", "decline" or "cancel"'],
];

describe("a malformed client answer", () => {
  it.each(malformed)("(%s) becomes a tool error naming the client's mistake", async (_what, asked, result, problem) => {
    const { isError, text } = toolOutcome(await answerWith(asked, result));
    expect(isError).toBe(true);
    expect(text).toBe(`${asked.method}: the client's answer is not a valid result: ${text.split("valid result: ")[1]}`);
    expect(text).toContain(problem);
    expect(text).not.toMatch(LEAKS);
    figures.refusedCleanly++;
  });

  it("of any shape fast-check draws never reaches a handler as a JavaScript error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(SAMPLING, ROOTS, ELICIT),
        fc.object({ maxDepth: 2, withNullPrototype: false }),
        async (asked, result) => {
          const { text } = toolOutcome(await answerWith(asked, result));
          if (LEAKS.test(text)) figures.leaked++;
          expect(text).not.toMatch(LEAKS);
        },
      ),
      fuzzParameters(25, 19),
    );
  });

  it("that is well formed still reaches the handler (a single-block sampling answer given as a one-element list)", async () => {
    const { isError, text } = toolOutcome(
      await answerWith(SAMPLING, { role: "assistant", model: "m", content: [{ type: "text", text: "listed" }] }),
    );
    expect(isError).toBe(false);
    expect(text).toBe("LLM response: listed");
  });
});

/** 2026-07-28 schema/examples, read at build time (the spec's test vectors). */
const examples = import.meta.glob<{ default: unknown }>(
  "../fixtures/spec-examples/{CreateMessageResult,ElicitResult,ListRootsResult,InputResponses}/*.json",
  { eager: true },
);

describe("the validators accept both eras' result shapes", () => {
  it("accept every 2026-07-28 example result", () => {
    const found = Object.entries(examples);
    expect(found.length).toBeGreaterThanOrEqual(9);
    for (const [path, module] of found) {
      const value = module.default;
      if (path.includes("/CreateMessageResult/")) checkCreateMessageResult(value);
      else if (path.includes("/ElicitResult/")) checkElicitResult(value);
      else if (path.includes("/ListRootsResult/")) checkListRootsResult(value);
      else {
        // InputResponses: each value is the result of one ask, told apart by its fields.
        for (const answer of Object.values(value as Record<string, Record<string, unknown>>)) {
          if ("action" in answer) checkElicitResult(answer);
          else if ("roots" in answer) checkListRootsResult(answer);
          else checkCreateMessageResult(answer);
        }
      }
      figures.examplesAccepted++;
    }
  });

  it("accept the 2025 shapes: one content block, multi-select elicitation, roots without names", () => {
    expect(
      checkCreateMessageResult({ role: "assistant", model: "m", content: { type: "audio", data: "AA==", mimeType: "audio/wav" } }).model,
    ).toBe("m");
    expect(checkElicitResult({ action: "accept", content: { n: 3, ok: true, tags: ["a", "b"] } })).toEqual({
      action: "accept",
      content: { n: 3, ok: true, tags: ["a", "b"] },
    });
    expect(checkElicitResult({ action: "decline", content: { ignored: true } })).toEqual({ action: "decline" });
    expect(checkListRootsResult({ roots: [{ uri: "file:///a" }] })).toEqual([{ uri: "file:///a" }]);
  });

  it("refuse with -32007, the client-error code, never a TypeError", () => {
    for (const bad of [null, 1, "x", [], { roots: [1] }]) {
      expect(() => checkListRootsResult(bad)).toThrow(RpcError);
      expect(() => checkCreateMessageResult(bad)).toThrow(RpcError);
      expect(() => checkElicitResult(bad)).toThrow(RpcError);
    }
    try {
      checkListRootsResult({ roots: [null] });
    } catch (error) {
      expect((error as RpcError).code).toBe(-32007);
    }
  });

  it("keep a __proto__ field of accepted content a plain field", () => {
    const answer = checkElicitResult(JSON.parse('{"action":"accept","content":{"__proto__":"x","a":"b"}}'));
    expect(answer.action === "accept" && Object.hasOwn(answer.content, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(answer.action === "accept" ? answer.content : {})).toBe(Object.prototype);
  });
});
