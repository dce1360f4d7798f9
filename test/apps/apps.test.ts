/**
 * MCP Apps through the demo Worker: a tool names its `ui://` page in `_meta.ui.resourceUri`,
 * the page is served as `text/html;profile=mcp-app` with its `_meta.ui`, and `initialize`
 * advertises the extension to clients that declared it. Plus the definition-time checks of
 * `uiResource` (mcp-edge/apps), added with `server.add`, and the moved `server.uiResource()`.
 */
import { describe, expect, it } from "vitest";
import { DICE_APP_URI } from "../../src/demo/extensions";
import { uiResource } from "../../src/features/apps/index";
import { defineServer } from "../../src/mcp/definition/server";
import { openSession, post } from "../helpers/mcp";
import { expectResult, statelessCall } from "../helpers/rpc-expect";

const UI = "io.modelcontextprotocol/ui";

describe("a tool with a UI", () => {
  it("names its ui:// page in tools/list", async () => {
    const { tools } = (await expectResult(await statelessCall("tools/list", {}, { version: "2025-11-25" }))) as {
      tools: { name: string; _meta?: unknown }[];
    };
    expect(tools.find((t) => t.name === "roll_dice")?._meta).toEqual({ ui: { resourceUri: DICE_APP_URI } });
  });

  it("serves the page as text/html;profile=mcp-app with its _meta.ui", async () => {
    const result = await expectResult(await statelessCall("resources/read", { uri: DICE_APP_URI }, { version: "2025-11-25" }));
    const [contents] = result.contents as { uri: string; mimeType: string; text: string; _meta: unknown }[];
    expect(contents?.uri).toBe(DICE_APP_URI);
    expect(contents?.mimeType).toBe("text/html;profile=mcp-app");
    expect(contents?.text.startsWith("<!doctype html>")).toBe(true);
    expect(contents?._meta).toEqual({ ui: { prefersBorder: true } });
  });

  it("returns structured rolls the page renders", async () => {
    const result = await expectResult(
      await statelessCall("tools/call", { name: "roll_dice", arguments: { count: 3, sides: 4 } }, { version: "2025-11-25" }),
    );
    const data = result.structuredContent as { rolls: number[]; total: number; sides: number };
    expect(data.rolls).toHaveLength(3);
    expect(data.rolls.every((n) => n >= 1 && n <= 4)).toBe(true);
    expect(data.total).toBe(data.rolls.reduce((a, b) => a + b, 0));
  });
});

describe("advertising the extension", () => {
  it("initialize lists io.modelcontextprotocol/ui to a client that declared it", async () => {
    const res = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { extensions: { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } } },
        clientInfo: { name: "host", version: "1" },
      },
    });
    const { capabilities } = (await expectResult(res, 0)) as { capabilities: { extensions?: Record<string, unknown> } };
    expect(capabilities.extensions).toEqual({ [UI]: {} });
  });

  it("and to nobody else", async () => {
    const { sessionId } = await openSession("2025-11-25");
    expect(sessionId).toMatch(/^[0-9a-f]{64}$/);
    const res = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "plain", version: "1" } },
    });
    expect(((await expectResult(res, 0)) as { capabilities: Record<string, unknown> }).capabilities.extensions).toBeUndefined();
  });
});

describe("declaring a UI", () => {
  const server = () => defineServer({ name: "s", version: "1" });
  const page = () => "<!doctype html><p>hi</p>";

  it("carries CSP origins and permissions into the resource's _meta.ui", async () => {
    const s = server().add(
      uiResource(
        "ui://s/page",
        {
          name: "page",
          csp: { connectDomains: ["https://api.example.com"] },
          permissions: { clipboardWrite: {} },
          domain: "page.example.com",
        },
        page,
      ),
    );
    const def = s.resources.get("ui://s/page");
    expect(def?.listing).toMatchObject({
      mimeType: "text/html;profile=mcp-app",
      _meta: {
        ui: { csp: { connectDomains: ["https://api.example.com"] }, permissions: { clipboardWrite: {} }, domain: "page.example.com" },
      },
    });
    expect([...s.extensions.keys()]).toEqual([UI]);
  });

  it("refuses URIs that are not ui://, unknown CSP keys and permissions, and bad visibility", () => {
    expect(() => uiResource("https://x/page", { name: "p" }, page)).toThrow(/ui:\/\//);
    expect(() => uiResource("ui://s/p", { name: "p", csp: { scriptDomains: ["x"] } as never }, page)).toThrow(/csp/);
    expect(() => uiResource("ui://s/p", { name: "p", permissions: { usb: {} } as never }, page)).toThrow(/permission/);
    const h = () => ({ content: [] });
    expect(() => server().tool("t", { description: "t", ui: { resourceUri: "page.html" } }, h)).toThrow(/ui:\/\//);
    expect(() => server().tool("t", { description: "t", ui: { resourceUri: "ui://s/p", visibility: ["user" as never] } }, h)).toThrow(
      /visibility/,
    );
  });

  it("keeps the tool's own _meta beside ui", () => {
    const s = server().tool(
      "t",
      { description: "t", _meta: { "com.example/x": 1 }, ui: { resourceUri: "ui://s/p", visibility: ["app"] } },
      () => ({ content: [] }),
    );
    expect(s.tools.get("t")?.listing._meta).toEqual({ "com.example/x": 1, ui: { resourceUri: "ui://s/p", visibility: ["app"] } });
  });
});

describe("server.uiResource(), moved to mcp-edge/apps", () => {
  it("throws a TypeError that names the import and the call to write instead", () => {
    const s = defineServer({ name: "s", version: "1" });
    const call = () => s.uiResource("ui://s/p", { name: "p" }, () => "<p>hi</p>");
    expect(call).toThrow(TypeError);
    expect(call).toThrow(
      'server.uiResource() moved: import { uiResource } from "mcp-edge/apps" and call server.add(uiResource(uri, config, html))',
    );
    expect(s.resources.size).toBe(0);
  });
});

describe("server.add with something it cannot add", () => {
  it("throws a TypeError naming what it takes, not the engine's own message", () => {
    const s = defineServer({ name: "s", version: "1" });
    for (const wrong of [undefined, null, "ui://s/p", { kind: "tool" }, { skillMd: "---" }]) {
      expect(() => s.add(wrong as never)).toThrow(
        new TypeError("server.add takes a definition made by defineMethod, defineNotification, uiResource or defineSkill"),
      );
    }
  });
});
