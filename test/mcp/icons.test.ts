/**
 * Icons and websiteUrl (SEP-973; 2026-07-28 schema `Icon`, `Implementation`): given once in the
 * definitions, served on the server info (initialize, server/discover) and on every list entry
 * (tools, resources, templates, prompts), and refused at definition when malformed.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ICONS } from "../../src/demo/assets";
import { dispatchContext, dispatchRequest, type DispatchContext } from "../../src/mcp/dispatch/dispatch";
import { defineServer, type McpServer } from "../../src/mcp/definition/server";
import { text } from "../../src/mcp/definition/content";
import { initializeParams, post } from "../helpers/mcp";
import { expectComplete, post2026 } from "../helpers/era-2026";
import { expectResult } from "../helpers/rpc-expect";

const PNG = { src: "https://example.com/icon-48.png", mimeType: "image/png", sizes: ["48x48", "96x96"], theme: "light" as const };
const SVG = { src: "data:image/svg+xml;base64,PHN2Zy8+", sizes: ["any"] };
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

async function list(server: McpServer, method: string): Promise<Record<string, unknown>> {
  const dc: DispatchContext<unknown> = dispatchContext(
    server,
    {},
    { era: "2025", sessions: false, session: undefined, protocolVersion: "2025-11-25" },
  );
  const reply = await dispatchRequest({ kind: "request", id: 1, method, params: {} }, dc, new AbortController());
  if (reply.kind !== "result") throw new Error(`${method} failed: ${JSON.stringify(reply)}`);
  return reply.result;
}

describe("icons on every definition", () => {
  const server = defineServer({ name: "iconic", version: "1", websiteUrl: "https://example.com/docs", icons: [PNG] })
    .tool("t", { description: "d", icons: [PNG, SVG] }, () => ({ content: [text("x")] }))
    .resource("x://r", { name: "r", icons: [SVG] }, () => ({ text: "r" }))
    .resourceTemplate("x://items/{id}", { name: "item", icons: [PNG] }, () => ({ text: "i" }))
    .prompt("p", { description: "d", icons: [SVG] }, () => ({ messages: [] }))
    .tool("plain", { description: "no icons" }, () => ({ content: [text("x")] }));

  it("lists them on tools, resources, templates and prompts, and leaves them out where none were given", async () => {
    const tools = (await list(server, "tools/list")).tools as Record<string, unknown>[];
    expect(tools[0]?.icons).toEqual([PNG, SVG]);
    expect(tools[1]).not.toHaveProperty("icons");
    expect(((await list(server, "resources/list")).resources as Record<string, unknown>[])[0]?.icons).toEqual([SVG]);
    expect(((await list(server, "resources/templates/list")).resourceTemplates as Record<string, unknown>[])[0]?.icons).toEqual([PNG]);
    expect(((await list(server, "prompts/list")).prompts as Record<string, unknown>[])[0]?.icons).toEqual([SVG]);
  });

  it("puts icons and websiteUrl in the server info", () => {
    expect(server.info).toEqual({ name: "iconic", version: "1", websiteUrl: "https://example.com/docs", icons: [PNG] });
  });
});

describe("the demo's server info", () => {
  it("carries its icons and description in the initialize result", async () => {
    const result = await expectResult(await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-11-25") }));
    expect(result.serverInfo).toMatchObject({ name: "mcp-edge-demo", icons: DEMO_ICONS, description: expect.stringMatching(/demo/) });
    expect(DEMO_ICONS[0]?.src).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it("carries them in server/discover's serverInfo, but keeps other 2026 results' serverInfo to name, version and title", async () => {
    const discovered = await expectComplete(await post2026("server/discover"));
    expect((discovered._meta as Record<string, Record<string, unknown>>)[SERVER_INFO]?.icons).toEqual(DEMO_ICONS);
    const listed = await expectComplete(await post2026("tools/list"));
    expect((listed._meta as Record<string, unknown>)[SERVER_INFO]).toEqual({ name: "mcp-edge-demo", version: "0.1.0" });
    const echo = (listed.tools as Record<string, unknown>[]).find((t) => t.name === "echo");
    expect(echo?.icons).toEqual(DEMO_ICONS);
  });
});

describe("refused at definition", () => {
  const cases: [string, unknown, RegExp][] = [
    ["a script URL", [{ src: "javascript:alert(1)" }], /icons\[0\]\.src must be an absolute http\(s\) URL or a base64 data: URI/],
    ["a relative path", [{ src: "/icon.png" }], /icons\[0\]\.src/],
    ["a data: URI that is not base64", [{ src: "data:image/svg+xml,<svg/>" }], /icons\[0\]\.src/],
    ["a size that is not WxH or any", [{ src: PNG.src, sizes: ["48"] }], /icons\[0\]\.sizes/],
    ["a theme other than light or dark", [{ src: PNG.src, theme: "blue" }], /icons\[0\]\.theme/],
    ["a misspelt key", [PNG, { src: PNG.src, size: ["48x48"] }], /icons\[1\] has an unknown key "size"/],
    ["something other than an array", { src: PNG.src }, /icons must be an array/],
  ];
  for (const [what, icons, message] of cases) {
    it(`refuses ${what}, naming the definition`, () => {
      expect(() =>
        defineServer({ name: "s", version: "1" }).tool("t", { description: "d", icons: icons as never }, () => ({ content: [] })),
      ).toThrow(new RegExp(`tool "t": ${message.source}`));
    });
  }

  it("refuses a websiteUrl that is not an absolute http(s) URL", () => {
    for (const websiteUrl of ["example.com", "ftp://example.com", "javascript:alert(1)"]) {
      expect(() => defineServer({ name: "s", version: "1", websiteUrl }), websiteUrl).toThrow(
        /websiteUrl must be an absolute http\(s\) URL/,
      );
    }
  });

  it("refuses bad icons on the server info, resources, templates and prompts too", () => {
    const bad = [{ src: "nope" }];
    expect(() => defineServer({ name: "s", version: "1", icons: bad })).toThrow(/defineServer: icons\[0\]\.src/);
    const server = defineServer({ name: "s", version: "1" });
    expect(() => server.resource("x://r", { name: "r", icons: bad }, () => ({ text: "" }))).toThrow(/resource "x:\/\/r": icons/);
    expect(() => server.resourceTemplate("x://{id}", { name: "t", icons: bad }, () => ({ text: "" }))).toThrow(/resource template/);
    expect(() => server.prompt("p", { description: "d", icons: bad }, () => ({ messages: [] }))).toThrow(/prompt "p": icons/);
  });
});
