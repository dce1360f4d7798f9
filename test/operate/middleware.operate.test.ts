/**
 * server.use(middleware) and server.onError(hook) wherever a call runs: the Worker (both eras),
 * the session object (an interactive tool on a 2025 session) and a task's run in its object.
 * Middleware runs in registration order, first registered outermost, around the handler; it may
 * answer on its own (the handler never runs) or refuse with a ToolError (a failing tool result)
 * or an RpcError (that JSON-RPC error). The error hook hears every unexpected exception with the
 * same reference the client was shown.
 */
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { defineServer } from "../../src/mcp/definition/server";
import { post2026, envelope } from "../helpers/era-2026";
import { calls, reports, trail } from "../servers/operate/entry";
import { callIn, PLACES, textOf, toolFor, type Place } from "./helpers";

beforeEach(() => {
  trail.length = 0;
  reports.length = 0;
  calls.length = 0;
});

/** The trail of the place's run (a task passes middleware twice: around the request that creates it, and around its run). */
function runTrail(place: Place): string[] {
  if (place !== "task run") return trail.slice();
  return trail.filter((step) => step.startsWith("task ")).map((step) => step.slice("task ".length));
}

describe.each(PLACES)("middleware in the %s", (place) => {
  it("runs in registration order, first registered outermost, around the handler", async () => {
    const name = toolFor(place);
    const answer = await callIn(place, name);
    expect(textOf(answer)).toMatch(/ran$/);
    expect(runTrail(place)).toEqual([`a>tools/call:${name}`, "b>", "handler", "<b", "<a"]);
  });

  it("may answer on its own: the client gets its result and the handler never runs", async () => {
    const name = toolFor(place, "answered_");
    const meta = place === "task run" ? { onlyInTask: true } : undefined;
    const answer = await callIn(place, name, { meta });
    expect(textOf(answer)).toBe(`answered by middleware for ${name}`);
    expect(runTrail(place)).not.toContain("handler");
    expect(runTrail(place)).toEqual([`a>tools/call:${name}`]);
  });

  it("refuses with a ToolError: a failing tool result with its text, and nothing else runs", async () => {
    const name = toolFor(place, "refused_");
    const meta = place === "task run" ? { onlyInTask: true } : undefined;
    const answer = await callIn(place, name, { meta });
    expect(answer.error).toBeUndefined();
    expect(answer.result?.isError).toBe(true);
    expect(textOf(answer)).toBe(`refused by policy: ${name}`);
    expect(runTrail(place)).not.toContain("handler");
    expect(runTrail(place)).toEqual([`a>tools/call:${name}`]);
  });

  it("refuses with an RpcError: the client gets that JSON-RPC error", async () => {
    const name = toolFor(place, "rpc_refused_");
    const meta = place === "task run" ? { onlyInTask: true } : undefined;
    const answer = await callIn(place, name, { meta });
    expect(answer.error).toMatchObject({ code: -32602, message: `not allowed: ${name}` });
    expect(runTrail(place)).not.toContain("handler");
  });
});

describe.each(PLACES)("onError in the %s", (place) => {
  it("hears the unexpected exception with the reference the client was shown, and the call", async () => {
    const name = place === "session object" ? "throws_interactive" : "throws";
    const answer = await callIn(place, name);
    const shown = textOf(answer);
    expect(shown).not.toContain("operate secret detail");
    const reference = /reference ([0-9a-f]{8})/.exec(shown)?.[1];
    expect(reference).toMatch(/^[0-9a-f]{8}$/);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.reference).toBe(reference);
    expect((reports[0]?.error as Error).message).toBe("operate secret detail");
    expect(reports[0]?.call).toMatchObject({ method: "tools/call", name });
  });
});

describe("middleware beyond tools/call", () => {
  it("wraps every request, with name undefined for methods that name nothing (2026 tools/list)", async () => {
    const res = await post2026("tools/list", {}, { id: 3 });
    expect(res.status).toBe(200);
    expect(trail).toEqual(["a>tools/list:", "b>", "<b", "<a"]);
    expect(calls[0]).toMatchObject({ method: "tools/list", name: undefined });
  });

  it("names the prompt on prompts/get, and a ToolError refusal outside tools/call is -32600", async () => {
    await post2026("prompts/get", { name: "greeting" }, { id: 4 });
    expect(calls[0]).toMatchObject({ method: "prompts/get", name: "greeting" });
    const refused = await post2026("prompts/list", {}, { id: 5, meta: envelope({}, { deny: true }) });
    const body = (await refused.json()) as { id: number; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 5, error: { code: -32600, message: "no prompts for you" } });
  });
});

describe("the McpCall type", () => {
  it("narrows name to a string with a named method, and to undefined otherwise", () => {
    const server = defineServer({ name: "types", version: "1.0.0" });
    server.use(async (call, next) => {
      if (call.method === "tools/call") expectTypeOf(call.name).toEqualTypeOf<string>();
      if (call.method === "resources/read") expectTypeOf(call.name).toEqualTypeOf<string>();
      if (call.method === "tools/list") expectTypeOf(call.name).toEqualTypeOf<undefined>();
      return next();
    });
    expect(server.middleware).toHaveLength(1);
  });
});
