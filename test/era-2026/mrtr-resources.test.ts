/**
 * MRTR on resources/read (2026-07-28 basic/patterns/mrtr.mdx: tools/call, prompts/get and
 * resources/read may answer input_required): an interactive resource asks with the same
 * `ctx.elicit`, and a retry's result is never cacheable (server/utilities/caching.mdx "Cache Key").
 */
import { createExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import type { EdgeEnv } from "../../src/kernel/env";
import { defineServer } from "../../src/mcp/definition/server";
import { ACCEPT_BOTH } from "../helpers/mcp";
import { envelope, expectComplete, expectInputRequired, headers2026 } from "../helpers/era-2026";

const server = defineServer<EdgeEnv>({ name: "mrtr-resources", version: "1.0.0" }).interactiveResource(
  "notes://locked",
  { name: "Locked note", mimeType: "text/plain", cache: { ttlMs: 60_000, scope: "public" } },
  async (uri, ctx) => {
    const answer = await ctx.elicit(
      "Passphrase?",
      { type: "object", properties: { phrase: { type: "string" } }, required: ["phrase"] },
      { key: "phrase" },
    );
    const phrase = answer.action === "accept" ? answer.content.phrase : undefined;
    return { uri, text: phrase === "open sesame" ? "the note" : "wrong passphrase" };
  },
);
const worker = createMcpEdge(server, { sessions: false }).worker;
const env = { MCP_STATE_SECRET: "resource-test-secret-0123456789abcdef" };

function read(extra: Record<string, unknown>, id: number): Promise<Response> {
  const params = { uri: "notes://locked", ...extra };
  return Promise.resolve(
    worker.fetch!(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026("resources/read", params) },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "resources/read", params: { ...params, _meta: envelope({ elicitation: {} }) } }),
      }) as never,
      env,
      createExecutionContext(),
    ),
  );
}

it("asks through input_required and reads after the retry, whose result is not cacheable", async () => {
  const first = await expectInputRequired(await read({}, 1), 1);
  expect(Object.keys(first.inputRequests)).toEqual(["phrase"]);
  const done = await expectComplete(
    await read(
      { inputResponses: { phrase: { action: "accept", content: { phrase: "open sesame" } } }, requestState: first.requestState },
      2,
    ),
    2,
  );
  expect(done.contents).toEqual([{ uri: "notes://locked", mimeType: "text/plain", text: "the note" }]);
  expect({ ttlMs: done.ttlMs, cacheScope: done.cacheScope }).toEqual({ ttlMs: 0, cacheScope: "private" });
});
