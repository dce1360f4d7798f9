/**
 * Session ids are unguessable: 64 lower-case hex characters minted by the Durable Object
 * namespace, all distinct, and any id the namespace did not mint — random, a real id with one
 * character changed, re-cased, padded, with control characters — is refused with 404 before
 * any object wakes (the set of object ids does not change).
 */
import { listDurableObjectIds } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { sessionNamespace } from "../helpers/rpc-expect";
import { CODE, expectRefusal } from "./support/documented";
import { MCP, post, request, startSession } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";

const figures = { idsMinted: 0, forgedTried: 0 };
afterAll(() => reportFigures("security-session-ids", figures));

const objectIds = async () => (await listDurableObjectIds(sessionNamespace())).map((id) => id.toString()).sort();

describe("session ids", () => {
  // 200 here: in this harness each new object makes the next initialize slower (1,000 take ~2 min).
  // test/e2e/reliability/load-over-http.test.ts mints 1,000 over real HTTP and checks them the same way.
  it("are 64 lower-case hex characters and 200 of them are all distinct", { timeout: 120_000 }, async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const res = await post({ jsonrpc: "2.0", id: i, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } });
      const id = res.headers.get("Mcp-Session-Id") as string;
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      ids.add(id);
      await res.body?.cancel();
    }
    figures.idsMinted = ids.size;
    expect(ids.size).toBe(200);
  });

  it("forged ids are refused with 404 on POST, GET and DELETE without waking any object", { timeout: 120_000 }, async () => {
    const real = await startSession("2025-06-18");
    const before = await objectIds();
    const forged = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{64}$/),
      fc
        .tuple(fc.nat({ max: 63 }), fc.constantFrom(..."0123456789abcdef"))
        .map(([at, c]) => real.sessionId.slice(0, at) + c + real.sessionId.slice(at + 1))
        .filter((id) => id !== real.sessionId),
      fc.constantFrom(
        real.sessionId.toUpperCase(),
        `${real.sessionId}0`,
        real.sessionId.slice(1),
        ` ${real.sessionId}`,
        `${real.sessionId}\t`,
        "../" + real.sessionId,
        "0".repeat(64),
        "f".repeat(64),
      ),
      fc.string({ unit: "binary-ascii", maxLength: 80 }),
    );
    await fc.assert(
      fc.asyncProperty(forged, fc.constantFrom("POST", "GET", "DELETE"), async (sessionId, method) => {
        let headers: Headers;
        try {
          headers = new Headers({ "Mcp-Session-Id": sessionId });
        } catch {
          return; // refused by the platform (control characters)
        }
        const sent = headers.get("Mcp-Session-Id") as string;
        fc.pre(sent !== real.sessionId);
        figures.forgedTried++;
        const res =
          method === "POST"
            ? await post({ jsonrpc: "2.0", id: 1, method: "ping" }, undefined, { "Mcp-Session-Id": sent })
            : await request(MCP, { method, headers: { Accept: "text/event-stream", "Mcp-Session-Id": sent } });
        // Present but not minted by the namespace (even empty): 404, the session does not exist.
        await expectRefusal(res, 404, CODE.SESSION_NOT_FOUND);
      }),
      fuzzParameters(600, 30),
    );
    expect(await objectIds()).toEqual(before);
  });
});
