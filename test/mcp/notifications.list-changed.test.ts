/** 2025-06-18 "Tools" > List Changed Notification: definitions gated by `enabled`, announced by notifyListChanged. */
import { afterEach, describe, expect, it } from "vitest";
import { call, initializeParams, post } from "../helpers/mcp";
import { hubRegistrations } from "../helpers/listen";
import { deleteSession, getStream, sseOf, startSession } from "../helpers/session";
import { flags } from "../servers/list-changed/entry";

const toolNames = async (sessionId: string, version: string) =>
  ((await call(sessionId, version, "tools/list")).result as { tools: { name: string }[] }).tools.map((t) => t.name);

describe("list_changed", () => {
  afterEach(() => {
    flags.beta = false;
  });

  it("declares listChanged for tools and prompts", async () => {
    const res = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") });
    const body = (await res.json()) as { result: { capabilities: Record<string, { listChanged?: boolean }> } };
    expect(body.result.capabilities.tools?.listChanged).toBe(true);
    expect(body.result.capabilities.prompts?.listChanged).toBe(true);
  });

  it("hides a disabled tool from tools/list and refuses to call it like an unknown tool", async () => {
    const s = await startSession("2025-06-18");
    expect(await toolNames(s.sessionId, s.version)).toEqual(["stable", "set_beta"]);
    const res = await call(s.sessionId, s.version, "tools/call", { name: "beta", arguments: {} });
    expect(res.error).toEqual({ code: -32602, message: "Unknown tool: beta" });
  });

  it("hides a disabled prompt from prompts/list and prompts/get", async () => {
    const s = await startSession("2025-06-18");
    const list = (await call(s.sessionId, s.version, "prompts/list")).result as { prompts: unknown[] };
    expect(list.prompts).toEqual([]);
    expect((await call(s.sessionId, s.version, "prompts/get", { name: "beta_prompt" })).error).toMatchObject({ code: -32602 });
  });

  it("tells every session with a GET stream when the tools change, and the new list shows the tool", async () => {
    const a = await startSession("2025-06-18");
    const b = await startSession("2025-11-25");
    const streamA = sseOf(await getStream(a));
    const streamB = sseOf(await getStream(b));
    expect((await streamB.next())?.data).toBe(""); // 2025-11-25 priming event

    const told = await call(a.sessionId, a.version, "tools/call", { name: "set_beta", arguments: { on: true } });
    expect((told.result as { content: { text: string }[] }).content[0]?.text).toMatch(/^told \d+ session\(s\)$/);
    expect((await streamA.next())?.json).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect((await streamB.next())?.json).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(await toolNames(b.sessionId, b.version)).toEqual(["stable", "beta", "set_beta"]);
    await Promise.all([streamA.cancel(), streamB.cancel()]);
  });

  it("forgets terminated sessions at the next notification", async () => {
    const a = await startSession("2025-06-18");
    const gone = await startSession("2025-06-18");
    expect((await deleteSession(gone)).status).toBe(204);
    await call(a.sessionId, a.version, "tools/call", { name: "set_beta", arguments: { on: true } });

    const registered = (await hubRegistrations())
      .filter((r) => (r as { topic: string }).topic === "lists")
      .map((r) => (r as { session_id: string }).session_id);
    expect(registered).toContain(a.sessionId);
    expect(registered).not.toContain(gone.sessionId);
  });
});
