import { describe, expect, it } from "vitest";
import { openSession, call } from "../helpers/mcp";

describe("smoke", () => {
  it("initializes a session and answers ping in the Worker", async () => {
    const { sessionId, version } = await openSession();
    expect(sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(await call(sessionId, version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
