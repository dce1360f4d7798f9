/** resources/list, templates/list and read in the Worker (2025-06-18 "Resources"). */
import { beforeAll, describe, expect, it } from "vitest";
import { INVALID_PARAMS, RESOURCE_NOT_FOUND } from "../../src/jsonrpc/errors";
import { PNG_1X1_BASE64 } from "../../src/demo/assets";
import { openSession, post } from "../helpers/mcp";
import { expectResult, expectRpcError, statelessCall } from "../helpers/rpc-expect";

let session: { sessionId: string; version: string };
beforeAll(async () => {
  session = await openSession("2025-06-18");
});

function rpc(method: string, params: Record<string, unknown> = {}, id: number | string = 1): Promise<Response> {
  return post({ jsonrpc: "2.0", id, method, params }, session);
}

describe("resources/list and resources/templates/list", () => {
  it("lists the static resources with uri, name and mimeType", async () => {
    const result = await expectResult(await rpc("resources/list"));
    expect(result.nextCursor).toBeUndefined();
    expect(result.resources).toEqual([
      expect.objectContaining({ uri: "test://static-text", name: "Static text resource", mimeType: "text/plain" }),
      expect.objectContaining({ uri: "test://static-binary", name: "Static binary resource", mimeType: "image/png" }),
      expect.objectContaining({ uri: "test://watched-resource", name: "Watched resource", mimeType: "text/plain" }),
      // The demo's MCP App page (src/demo/extensions.ts).
      expect.objectContaining({ uri: "ui://mcp-edge-demo/dice.html", name: "dice-board", mimeType: "text/html;profile=mcp-app" }),
      // The demo's skills (src/demo/skills.ts): every file of each, SKILL.md named and described from its frontmatter.
      expect.objectContaining({ uri: "skill://edge-deploy/SKILL.md", name: "edge-deploy", mimeType: "text/markdown" }),
      expect.objectContaining({ uri: "skill://edge-deploy/references/bindings.md", name: "bindings.md" }),
      expect.objectContaining({ uri: "skill://edge-deploy/scripts/check.sh", name: "check.sh", mimeType: "text/x-shellscript" }),
      expect.objectContaining({ uri: "skill://mcp-edge/docs/release-notes/SKILL.md", name: "release-notes" }),
    ]);
  });

  it("lists the resource template with its uriTemplate", async () => {
    const result = await expectResult(await rpc("resources/templates/list"));
    expect(result.resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: "test://template/{id}/data", name: "Template data", mimeType: "application/json" }),
    ]);
  });
});

describe("resources/read", () => {
  it("reads a text resource", async () => {
    expect(await expectResult(await rpc("resources/read", { uri: "test://static-text" }))).toEqual({
      contents: [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }],
    });
  });

  it("reads a binary resource as a base64 blob", async () => {
    expect(await expectResult(await rpc("resources/read", { uri: "test://static-binary" }))).toEqual({
      contents: [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG_1X1_BASE64 }],
    });
  });

  it("reads a templated resource with the variable substituted", async () => {
    const result = await expectResult(await rpc("resources/read", { uri: "test://template/42/data" }));
    expect(result.contents).toEqual([
      {
        uri: "test://template/42/data",
        mimeType: "application/json",
        text: JSON.stringify({ id: "42", templateTest: true, data: "Data for ID: 42" }),
      },
    ]);
  });

  it("percent-decodes a template variable", async () => {
    const result = await expectResult(await rpc("resources/read", { uri: "test://template/a%20b/data" }));
    const contents = result.contents as { text: string }[];
    expect(JSON.parse(contents[0]?.text ?? "{}")).toMatchObject({ id: "a b" });
  });

  it("answers an unknown resource with -32002 and the uri in data", async () => {
    const body = await expectRpcError(await rpc("resources/read", { uri: "test://nope" }, 9), 200, RESOURCE_NOT_FOUND, 9);
    expect(body.error?.data).toEqual({ uri: "test://nope" });
  });

  it("answers a uri that only looks like the template with -32002", async () => {
    await expectRpcError(await rpc("resources/read", { uri: "test://template/1/2/data" }), 200, RESOURCE_NOT_FOUND, 1);
  });

  it("answers a non-string uri with -32602", async () => {
    await expectRpcError(await rpc("resources/read", { uri: 5 }), 200, INVALID_PARAMS, 1);
  });

  it("reads resources in stateless mode as well", async () => {
    const result = await expectResult(await statelessCall("resources/read", { uri: "test://static-text" }));
    expect(result.contents).toEqual([expect.objectContaining({ text: "This is the content of the static text resource." })]);
  });
});

describe("resources/subscribe in a session", () => {
  it("answers subscribe to a known resource with exactly {}", async () => {
    expect(await expectResult(await rpc("resources/subscribe", { uri: "test://watched-resource" }))).toEqual({});
  });

  it("answers subscribe to an unknown resource with -32002", async () => {
    await expectRpcError(await rpc("resources/subscribe", { uri: "test://nope" }), 200, RESOURCE_NOT_FOUND, 1);
  });

  it("answers unsubscribe with exactly {}", async () => {
    expect(await expectResult(await rpc("resources/unsubscribe", { uri: "test://watched-resource" }))).toEqual({});
  });
});
