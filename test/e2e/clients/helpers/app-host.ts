// The host side of an MCP App, run in the test's browser page: reads the tool's ui:// page from
// the Worker, renders it in a sandboxed iframe, and connects it with @modelcontextprotocol/ext-apps'
// AppBridge. The bridge forwards the page's tools/call to the Worker over HTTP. Bundled by
// app-host-page.mjs; the test starts it with `window.startHost(endpoint)`.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

type Json = Record<string, unknown>;

interface HostState {
  /** Tool calls the page made through the bridge, by name, answered by the Worker. */
  calls: string[];
  mimeType: string;
  resourceMeta: unknown;
}

declare global {
  interface Window {
    startHost(endpoint: string): Promise<HostState>;
  }
}

let nextId = 1;

async function rpc(endpoint: string, method: string, params: Json): Promise<Json> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const body = (await res.json()) as { result?: Json; error?: { message: string } };
  if (!body.result) throw new Error(`${method}: ${body.error?.message ?? res.status}`);
  return body.result;
}

window.startHost = async (endpoint) => {
  const { tools } = (await rpc(endpoint, "tools/list", {})) as { tools: { name: string; _meta?: { ui?: { resourceUri?: string } } }[] };
  const uri = tools.find((t) => t.name === "roll_dice")?._meta?.ui?.resourceUri;
  if (!uri) throw new Error("roll_dice names no ui:// resource");
  const { contents } = (await rpc(endpoint, "resources/read", { uri })) as {
    contents: { text: string; mimeType: string; _meta?: unknown }[];
  };
  const page = contents[0];
  if (!page) throw new Error("the ui resource has no contents");

  const iframe = document.createElement("iframe");
  iframe.sandbox.add("allow-scripts"); // an opaque origin: the page reaches the host by postMessage only
  iframe.style.cssText = "width:420px;height:260px;border:1px solid #ccd";
  document.body.appendChild(iframe);
  const view = iframe.contentWindow;
  if (!view) throw new Error("the iframe has no window");

  const state: HostState = { calls: [], mimeType: page.mimeType, resourceMeta: page._meta };
  const bridge = new AppBridge(null, { name: "mcp-edge-test-host", version: "1.0.0" }, { serverTools: {} });
  bridge.oncalltool = async (params) => {
    state.calls.push(params.name);
    return (await rpc(endpoint, "tools/call", params as unknown as Json)) as never;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  // Listen before the page loads: its ui/initialize is the first thing it sends.
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = page.text;
  await initialized;

  const args = { count: 3, sides: 6 };
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult((await rpc(endpoint, "tools/call", { name: "roll_dice", arguments: args })) as never);
  (window as unknown as { hostState: HostState }).hostState = state;
  return state;
};
