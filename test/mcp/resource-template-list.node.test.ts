/**
 * Resource templates that list their resources: a template's `list` feeds `resources/list` after
 * the static resources, paginated with the same opaque cursors (2025-06-18 "Pagination"), either
 * by mcp-edge (an array) or by the template itself (its own nextCursor). Through dispatchRequest
 * with a small server (pageSize 2).
 */
import { describe, expect, it, vi } from "vitest";
import { INTERNAL_ERROR, INVALID_PARAMS } from "../../src/jsonrpc/errors";
import type { ResponseMessage } from "../../src/jsonrpc/messages";
import { dispatchContext, dispatchRequest, type DispatchContext } from "../../src/mcp/dispatch/dispatch";
import { defineServer, type McpServer } from "../../src/mcp/definition/server";

const seenByPaged: { cursor: string | undefined; pageSize: number }[] = [];
const PAGES: Record<string, { ids: string[]; next?: string }> = { first: { ids: ["c1", "c2"], next: "p2" }, p2: { ids: ["c3"] } };

const server = defineServer({ name: "listing", version: "1", pageSize: 2 })
  .resource("s://r/1", { name: "r1" }, (uri) => ({ uri, text: "1" }))
  .resource("s://r/2", { name: "r2" }, (uri) => ({ uri, text: "2" }))
  .resource("s://r/3", { name: "r3" }, (uri) => ({ uri, text: "3" }))
  .resourceTemplate(
    "s://a/{id}",
    { name: "a", mimeType: "text/markdown", list: () => ["a1", "a2", "a3"].map((id) => ({ uri: `s://a/${id}`, name: id })) },
    (uri, { id }) => ({ uri, text: `note ${id}` }),
  )
  .resourceTemplate("s://b/{id}", { name: "b (reads only, lists nothing)" }, (uri) => ({ uri, text: "b" }))
  .resourceTemplate(
    "s://c/{id}",
    {
      name: "c",
      list: ({ cursor, pageSize }) => {
        seenByPaged.push({ cursor, pageSize });
        const page = PAGES[cursor ?? "first"] as { ids: string[]; next?: string };
        const resources = page.ids.map((id) => ({ uri: `s://c/${id}`, name: id, mimeType: "application/json" }));
        return page.next ? { resources, nextCursor: page.next } : { resources };
      },
    },
    (uri) => ({ uri, text: "{}" }),
  )
  .resourceTemplate("s://off/{id}", { name: "off", enabled: () => false, list: () => [{ uri: "s://off/x", name: "x" }] }, (uri) => ({
    uri,
    text: "",
  }));

function dispatch(target: McpServer, method: string, params?: Record<string, unknown>): Promise<ResponseMessage> {
  const dc: DispatchContext<unknown> = dispatchContext(
    target,
    {},
    { era: "2025", sessions: false, session: undefined, protocolVersion: "2025-11-25" },
  );
  return dispatchRequest({ kind: "request", id: 1, method, params }, dc, new AbortController());
}

async function result(target: McpServer, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await dispatch(target, method, params);
  if (response.kind !== "result") throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
  return response.result;
}

async function walk(target: McpServer): Promise<Record<string, unknown>[][]> {
  const pages: Record<string, unknown>[][] = [];
  let cursor: string | undefined;
  do {
    const page = await result(target, "resources/list", cursor === undefined ? undefined : { cursor });
    pages.push(page.resources as Record<string, unknown>[]);
    cursor = page.nextCursor as string | undefined;
    if (pages.length > 10) throw new Error("nextCursor never ended");
  } while (cursor !== undefined);
  return pages;
}

describe("resources/list with listing templates", () => {
  it("walks the static resources, then each template's resources, two per page, each exactly once", async () => {
    seenByPaged.length = 0;
    expect((await walk(server)).map((page) => page.map((r) => r.name))).toEqual([
      ["r1", "r2"],
      ["r3", "a1"],
      ["a2", "a3"],
      ["c1", "c2"],
      ["c3"],
    ]);
  });

  it("hands a template that pages itself its own cursor back, and the room left on the page", async () => {
    seenByPaged.length = 0;
    await walk(server);
    expect(seenByPaged).toEqual([
      { cursor: undefined, pageSize: 2 },
      { cursor: "p2", pageSize: 2 },
    ]);
  });

  it("gives a listed resource the template's mimeType unless it names its own", async () => {
    const all = (await walk(server)).flat();
    expect(all.find((r) => r.name === "a1")).toEqual({ uri: "s://a/a1", name: "a1", mimeType: "text/markdown" });
    expect(all.find((r) => r.name === "c3")).toEqual({ uri: "s://c/c3", name: "c3", mimeType: "application/json" });
  });

  it("does not list what a disabled template names", async () => {
    expect((await walk(server)).flat().map((r) => r.uri)).not.toContain("s://off/x");
  });

  it("reads a listed resource through its template", async () => {
    expect(await result(server, "resources/read", { uri: "s://a/a2" })).toEqual({
      contents: [{ uri: "s://a/a2", mimeType: "text/markdown", text: "note a2" }],
    });
  });

  it("answers a cursor it did not issue, or one naming a source it does not have, with -32602", async () => {
    for (const cursor of [
      "nonsense",
      btoa(JSON.stringify({ l: "resources", s: 99, o: 0 })),
      btoa(JSON.stringify({ l: "tools", s: 0, o: 0 })),
    ]) {
      const response = await dispatch(server, "resources/list", { cursor });
      expect(response.kind === "error" ? response.error.code : undefined, cursor).toBe(INVALID_PARAMS);
    }
  });

  it("fails with -32603 (its cause in the log) when a template lists a URI it does not match", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = defineServer({ name: "b", version: "1" }).resourceTemplate(
      "s://x/{id}",
      { name: "x", list: () => [{ uri: "other://y", name: "y" }] },
      (uri) => ({ uri, text: "" }),
    );
    const response = await dispatch(broken, "resources/list");
    expect(response.kind === "error" ? response.error.code : undefined).toBe(INTERNAL_ERROR);
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining(""),
      expect.objectContaining({ message: expect.stringContaining("does not match") }),
    );
    logged.mockRestore();
  });

  it("refuses a list option that is not a function at definition", () => {
    expect(() =>
      defineServer({ name: "b", version: "1" }).resourceTemplate("s://{id}", { name: "x", list: [] as never }, () => ({ text: "" })),
    ).toThrow(/list must be a function/);
  });
});
