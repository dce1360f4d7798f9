/**
 * Opaque cursors on every list method (2025-06-18 "Pagination"): nextCursor walks every page
 * exactly once, the last page has no nextCursor, and a cursor the server did not issue for
 * that list is -32602. Tested through dispatchRequest with a small server (pageSize 2).
 */
import { describe, expect, it } from "vitest";
import { INVALID_PARAMS } from "../../src/jsonrpc/errors";
import type { RequestMessage, ResponseMessage } from "../../src/jsonrpc/messages";
import { text } from "../../src/mcp/definition/content";
import { dispatchContext, dispatchRequest, type DispatchContext } from "../../src/mcp/dispatch/dispatch";
import { defineServer } from "../../src/mcp/definition/server";

const server = defineServer({ name: "paged", version: "1.0.0", pageSize: 2 });
for (const n of [1, 2, 3, 4, 5]) server.tool(`tool_${n}`, { description: `tool ${n}` }, () => ({ content: [text(String(n))] }));
for (const n of [1, 2, 3]) server.prompt(`prompt_${n}`, { description: `prompt ${n}` }, () => ({ messages: [] }));
for (const n of [1, 2, 3, 4]) server.resource(`paged://r/${n}`, { name: `r${n}` }, (uri) => ({ uri, text: String(n) }));
for (const n of [1, 2, 3]) server.resourceTemplate(`paged://t${n}/{id}`, { name: `t${n}` }, (uri) => ({ uri, text: "t" }));

const dc: DispatchContext<unknown> = dispatchContext(
  server,
  {},
  { era: "2025", sessions: false, session: undefined, protocolVersion: "2025-06-18" },
);

let nextId = 1;
function dispatch(method: string, params?: Record<string, unknown>): Promise<ResponseMessage> {
  const request: RequestMessage = { kind: "request", id: nextId++, method, params };
  return dispatchRequest(request, dc, new AbortController());
}

async function page(method: string, cursor?: string): Promise<Record<string, unknown>> {
  const response = await dispatch(method, cursor === undefined ? undefined : { cursor });
  if (response.kind !== "result") throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
  return response.result;
}

/** Follows nextCursor from the first page to the last; returns each page's item names. */
async function walk(method: string, key: string, nameOf: (item: Record<string, unknown>) => unknown): Promise<unknown[][]> {
  const pages: unknown[][] = [];
  let cursor: string | undefined;
  do {
    const result = await page(method, cursor);
    pages.push((result[key] as Record<string, unknown>[]).map(nameOf));
    cursor = result.nextCursor as string | undefined;
    if (pages.length > 10) throw new Error("nextCursor never ended");
  } while (cursor !== undefined);
  return pages;
}

async function errorCode(method: string, params: Record<string, unknown>): Promise<number | undefined> {
  const response = await dispatch(method, params);
  return response.kind === "error" ? response.error.code : undefined;
}

describe("pagination", () => {
  it("walks every tools/list page with nextCursor and ends without one", async () => {
    expect(await walk("tools/list", "tools", (t) => t.name)).toEqual([["tool_1", "tool_2"], ["tool_3", "tool_4"], ["tool_5"]]);
  });

  it("walks prompts/list pages", async () => {
    expect(await walk("prompts/list", "prompts", (p) => p.name)).toEqual([["prompt_1", "prompt_2"], ["prompt_3"]]);
  });

  it("walks resources/list pages, the last one full and without nextCursor", async () => {
    expect(await walk("resources/list", "resources", (r) => r.uri)).toEqual([
      ["paged://r/1", "paged://r/2"],
      ["paged://r/3", "paged://r/4"],
    ]);
  });

  it("walks resources/templates/list pages", async () => {
    expect(await walk("resources/templates/list", "resourceTemplates", (t) => t.uriTemplate)).toEqual([
      ["paged://t1/{id}", "paged://t2/{id}"],
      ["paged://t3/{id}"],
    ]);
  });

  it("gives no nextCursor when one page holds everything", async () => {
    const big = defineServer({ name: "big", version: "1" }).tool("only", { description: "d" }, () => ({ content: [] }));
    const response = await dispatchRequest(
      { kind: "request", id: 1, method: "tools/list", params: undefined },
      { ...dc, server: big },
      new AbortController(),
    );
    expect(response).toEqual({ kind: "result", id: 1, result: { tools: [expect.objectContaining({ name: "only" })] } });
  });

  it("issues cursors that are opaque strings, not plain offsets", async () => {
    const cursor = (await page("tools/list")).nextCursor;
    expect(typeof cursor).toBe("string");
    expect(cursor).not.toMatch(/^\d+$/);
  });

  it("answers a cursor that does not decode with -32602", async () => {
    expect(await errorCode("tools/list", { cursor: "%%%not base64%%%" })).toBe(INVALID_PARAMS);
  });

  it("answers an empty cursor with -32602", async () => {
    expect(await errorCode("tools/list", { cursor: "" })).toBe(INVALID_PARAMS);
  });

  it("answers a cursor issued for another list with -32602", async () => {
    const promptsCursor = (await page("prompts/list")).nextCursor as string;
    expect(await errorCode("tools/list", { cursor: promptsCursor })).toBe(INVALID_PARAMS);
  });

  it("answers a cursor with a negative or non-integer offset with -32602", async () => {
    expect(await errorCode("tools/list", { cursor: btoa("tools:-2") })).toBe(INVALID_PARAMS);
    expect(await errorCode("tools/list", { cursor: btoa("tools:1.5") })).toBe(INVALID_PARAMS);
  });

  it("answers a cursor that is not a string with -32602", async () => {
    expect(await errorCode("resources/list", { cursor: 2 })).toBe(INVALID_PARAMS);
  });

  it("issues cursors without base64 padding, and decodes them", async () => {
    // Offset 4 ("tools:4") is the length that base64 would pad.
    const second = (await page("tools/list", (await page("tools/list")).nextCursor as string)).nextCursor as string;
    expect(second).toBe(btoa("tools:4").replace(/=+$/, ""));
    expect(second).not.toContain("=");
    expect(((await page("tools/list", second)).tools as { name: string }[]).map((t) => t.name)).toEqual(["tool_5"]);
  });
});
