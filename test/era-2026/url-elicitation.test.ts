/**
 * URL mode elicitation on 2026-07-28 (client/elicitation.mdx "URL Mode Elicitation Requests"):
 * the ask is `{ mode, message, url }` with no 2025-11-25 `elicitationId`, and a mode the request
 * did not declare in its own clientCapabilities is 400 -32021 naming it (basic/index.mdx).
 */
import { describe, expect, it } from "vitest";
import { expectComplete, expectInputRequired, expect2026Error, post2026 } from "../helpers/era-2026";

const URL_MODE = { elicitation: { url: {} } };

function call(name: string, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}, id = 1) {
  return post2026("tools/call", { name, arguments: {}, ...extra }, { capabilities, id });
}

describe("URL mode elicitation on 2026-07-28", () => {
  it("asks with exactly mode, message and url: no elicitationId on this era", async () => {
    const result = await expectInputRequired(await call("connect_account", URL_MODE));
    expect(result.inputRequests).toEqual({
      connect: {
        method: "elicitation/create",
        params: { mode: "url", message: "Connect your example.com account", url: "https://example.com/connect?from=mcp-edge-demo" },
      },
    });
  });

  it("completes when the retry carries the user's accept", async () => {
    const first = await expectInputRequired(await call("connect_account", URL_MODE));
    const done = await expectComplete(
      await call("connect_account", URL_MODE, { inputResponses: { connect: { action: "accept" } }, requestState: first.requestState }, 2),
      2,
    );
    expect(done.content).toEqual([{ type: "text", text: "User agreed to open the page" }]);
  });

  it("refuses with 400 -32021 naming elicitation.url when the request declared only form mode", async () => {
    for (const elicitation of [{}, { form: {} }]) {
      const body = await expect2026Error(await call("connect_account", { elicitation }), 400, -32021);
      expect(body.error?.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    }
  });

  it("refuses with 400 -32021 when the request declared no elicitation at all", async () => {
    const body = await expect2026Error(await call("connect_account", { sampling: {} }), 400, -32021);
    expect(body.error?.data).toEqual({ requiredCapabilities: { elicitation: {} } });
  });

  it("reads the mode from this request, not an earlier one: a form ask to a URL-only request is refused naming elicitation.form", async () => {
    await expectInputRequired(await call("test_input_required_result_elicitation", { elicitation: { form: {} } }));
    const body = await expect2026Error(await call("test_input_required_result_elicitation", URL_MODE, {}, 2), 400, -32021, 2);
    expect(body.error?.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
  });
});
