/**
 * A rate limit per tenant: the rule's key reads `call.request.params.tenant`, so each tenant
 * spends its own budget (TENANT_LIMIT: 2 calls per 10 s) and one tenant's burst does not
 * refuse another's calls.
 */
import { describe, expect, it } from "vitest";
import { inOneWindow } from "../helpers/rate-window";
import { answerOf, send2026, urlOf } from "../routes/helpers";

async function callLimited(tenant: string, id: number): Promise<Response> {
  return send2026(urlOf(tenant), id, "tools/call", { name: "limited", arguments: {} });
}

describe("a rate limit keyed by the route parameter", () => {
  it("refuses a tenant's third call with 429 while another tenant is still served", async () => {
    const third = await inOneWindow(10, async () => {
      const tenant = `t${crypto.randomUUID().slice(0, 8)}`;
      expect((await callLimited(tenant, 1)).status).toBe(200);
      expect((await callLimited(tenant, 2)).status).toBe(200);
      return callLimited(tenant, 3);
    });
    expect(third.status).toBe(429);
    expect(third.headers.get("Retry-After")).toBe("10");
    const other = `u${crypto.randomUUID().slice(0, 8)}`;
    expect((await answerOf(await callLimited(other, 4), 4)).result).toMatchObject({ content: [{ type: "text", text: "ok" }] });
  });
});
