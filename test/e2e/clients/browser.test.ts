// A browser client: headless Chromium (Debian's package, driven by playwright-core) loads a page
// from a tiny server on 127.0.0.1 and, from that page, speaks MCP to the Worker with fetch —
// across origins (another port), so every request goes through CORS. An allowed origin (host
// 127.0.0.1, any port, the Worker's default) initializes, reads Mcp-Session-Id through CORS,
// calls tools, opens the GET stream and terminates. A foreign origin (http://evil.test, mapped to
// 127.0.0.1 inside the browser) is refused: its preflight gets 403, so the page's fetch fails, and
// a request that needs no preflight gets 403 too. Status codes the page cannot read come from the
// DevTools protocol (Network domain).
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useWorker } from "../helpers/server";
import { chromiumVersion, launchChromium, startPageServer } from "./helpers/browser.mjs";
import { packageVersion } from "./helpers/compat.mjs";
import { useCompatRecord } from "./helpers/record";
import type { WireMessage } from "./helpers/wiretap.mjs";

const EVIL_HOST = "evil.test";

let browserVersion = "";
try {
  browserVersion = chromiumVersion();
} catch {
  // reported by beforeAll (launchChromium), with the install command
}

const compat = useCompatRecord({
  id: "browser-chromium",
  order: 70,
  client: "Browser page (`fetch`, CORS)",
  version: `Chromium ${browserVersion || "(missing)"} headless, playwright-core ${packageVersion("playwright-core")}`,
  transport: "Streamable HTTP from a page on another origin",
  exercised: [
    "initialize",
    "Mcp-Session-Id read through CORS",
    "tools/call (JSON and SSE)",
    "GET stream opened",
    "DELETE",
    "foreign origin refused (403 preflight)",
  ],
});

const server = useWorker();
let pages: Awaited<ReturnType<typeof startPageServer>> | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  pages = await startPageServer();
  browser = await launchChromium([`--host-resolver-rules=MAP ${EVIL_HOST} 127.0.0.1`]);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

interface NetworkLog {
  /** Requests for the MCP endpoint by DevTools request id: method (OPTIONS for a preflight) and status. */
  requests: Map<string, { method?: string; status?: number }>;
  /** CORS errors of failed requests. */
  corsErrors: string[];
}

/** [method, status] of every MCP endpoint request that got an answer; a preflight is "OPTIONS". */
function answered(network: NetworkLog): [string, number][] {
  return [...network.requests.values()].filter((r) => r.method && r.status).map((r) => [r.method!, r.status!]);
}

/** A fresh context and page at `origin`, with the MCP endpoint's network traffic logged over CDP. */
async function openPage(origin: string): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; network: NetworkLog }> {
  const context = await browser!.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const network: NetworkLog = { requests: new Map(), corsErrors: [] };
  const entry = (id: string) => network.requests.get(id) ?? network.requests.set(id, {}).get(id)!;
  // Status codes from the *ExtraInfo events: those come for CORS-blocked answers too.
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.request.url.startsWith(server.mcpUrl)) entry(e.requestId).method = e.request.method;
  });
  cdp.on("Network.responseReceivedExtraInfo", (e) => {
    entry(e.requestId).status = e.statusCode;
  });
  cdp.on("Network.loadingFailed", (e) => {
    if (e.corsErrorStatus) network.corsErrors.push(e.corsErrorStatus.corsError);
  });
  await cdp.send("Network.enable");
  await page.goto(`${origin}/`);
  return { context, page, cdp, network };
}

/**
 * Runs in the page: a minimal MCP client on fetch. Every step reports what the page could see;
 * nothing throws out of it.
 */
async function pageClient(mcpUrl: string) {
  const out: Record<string, unknown> = { origin: location.origin };
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const readMessages = async (res: Response): Promise<WireMessage[]> => {
    const text = await res.text();
    if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
      return text
        .split(/\r?\n\r?\n/)
        .map((event) =>
          event
            .split(/\r?\n/)
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .join("\n"),
        )
        .filter((data) => data.length > 0)
        .map((data) => JSON.parse(data));
    }
    return text ? [JSON.parse(text)] : [];
  };
  try {
    const init = await fetch(mcpUrl, {
      method: "POST",
      headers: base,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e-browser-page", version: "1.0.0" } },
      }),
    });
    out.initStatus = init.status;
    const sessionId = init.headers.get("mcp-session-id");
    out.sessionId = sessionId;
    const initResult = (await readMessages(init))[0]?.result;
    out.protocolVersion = initResult?.protocolVersion;
    out.serverName = (initResult?.serverInfo as { name?: string } | undefined)?.name;
    const session = { "mcp-session-id": sessionId ?? "", "mcp-protocol-version": String(initResult?.protocolVersion) };

    const initialized = await fetch(mcpUrl, {
      method: "POST",
      headers: { ...base, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    out.initializedStatus = initialized.status;

    const echo = await fetch(mcpUrl, {
      method: "POST",
      headers: { ...base, ...session },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "from the page ✓" } },
      }),
    });
    out.echoStatus = echo.status;
    out.echoResult = (await readMessages(echo))[0]?.result;

    // An interactive tool: the answer is an SSE stream with progress notifications, read by the page.
    const progress = await fetch(mcpUrl, {
      method: "POST",
      headers: { ...base, ...session },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "stream_progress", arguments: { count: 3 }, _meta: { progressToken: "page" } },
      }),
    });
    out.progressType = progress.headers.get("content-type");
    const streamed = await readMessages(progress);
    out.progressValues = streamed.filter((m) => m.method === "notifications/progress").map((m) => m.params?.progress);
    out.progressResult = streamed.find((m) => m.id === 3)?.result;

    // The standalone GET stream: headers, then the first bytes (the priming event), then hang up.
    // No cache option on purpose: the server's SSE answers say `Cache-Control: no-store`. With
    // `no-cache` Chromium kept this stream in its HTTP cache, and after the abort below sent the
    // next DELETE to the same URL twice (the second copy got 404); the DELETE assertions below
    // catch that if it comes back.
    const abort = new AbortController();
    const get = await fetch(mcpUrl, { headers: { accept: "text/event-stream", ...session }, signal: abort.signal });
    out.getStatus = get.status;
    out.getType = get.headers.get("content-type");
    const reader = get.body!.getReader();
    const first = await Promise.race([
      reader.read(),
      new Promise<{ value?: Uint8Array }>((resolve) => setTimeout(() => resolve({}), 10_000)),
    ]);
    out.getFirstBytes = first.value ? new TextDecoder().decode(first.value) : null;
    abort.abort();

    const del = await fetch(mcpUrl, { method: "DELETE", headers: session });
    out.deleteStatus = del.status;
    const after = await fetch(mcpUrl, {
      method: "POST",
      headers: { ...base, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }),
    });
    out.afterDeleteStatus = after.status;
  } catch (err) {
    out.error = `${(err as Error).name}: ${(err as Error).message}`;
  }
  return out;
}

/** Runs in the page: what a foreign page gets when it tries to initialize, and when it GETs without a preflight. */
async function foreignPage(mcpUrl: string) {
  const out: Record<string, unknown> = { origin: location.origin };
  try {
    const res = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "evil", version: "1.0.0" } },
      }),
    });
    out.initStatus = res.status;
    out.sessionId = res.headers.get("mcp-session-id");
  } catch (err) {
    out.initError = `${(err as Error).name}: ${(err as Error).message}`;
  }
  try {
    // A "simple" request: no preflight, so only the server's Origin check stands in the way.
    const res = await fetch(mcpUrl, { method: "GET" });
    out.getStatus = res.status;
  } catch (err) {
    out.getError = `${(err as Error).name}: ${(err as Error).message}`;
  }
  return out;
}

describe("a page on an allowed origin (http://127.0.0.1:<another port>)", () => {
  let result: Record<string, unknown> = {};
  let network: NetworkLog = { requests: new Map(), corsErrors: [] };

  beforeAll(async () => {
    const opened = await openPage(`http://127.0.0.1:${pages!.port}`);
    try {
      result = await opened.page.evaluate(pageClient, server.mcpUrl);
      network = opened.network;
    } finally {
      await opened.context.close();
    }
  }, 60_000);

  it("initializes and reads Mcp-Session-Id through CORS", () => {
    expect(result.error).toBeUndefined();
    expect(result.origin).toBe(`http://127.0.0.1:${pages!.port}`);
    expect(result.initStatus).toBe(200);
    expect(result.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(result.serverName).toBe("mcp-edge-demo");
    expect(result.protocolVersion).toBe("2025-11-25");
    compat.protocol = String(result.protocolVersion);
    expect(result.initializedStatus).toBe(202);
  });

  it("calls a simple tool (JSON) and an interactive one (SSE with progress)", () => {
    expect(result.echoStatus).toBe(200);
    expect(result.echoResult).toEqual({ content: [{ type: "text", text: "from the page ✓" }] });
    expect(result.progressType).toContain("text/event-stream");
    expect(result.progressValues).toEqual([1, 2, 3]);
    expect(result.progressResult).toEqual({ content: [{ type: "text", text: "done 3" }] });
  });

  it("opens the standalone GET stream and receives its first event", () => {
    expect(result.getStatus).toBe(200);
    expect(result.getType).toContain("text/event-stream");
    expect(result.getFirstBytes).toMatch(/^(id: |:|retry: |event: |data: )/m);
  });

  it("terminates the session with DELETE; the session then answers 404", () => {
    expect(result.deleteStatus).toBe(204);
    expect(result.afterDeleteStatus).toBe(404);
    expect(answered(network).filter(([method]) => method === "DELETE")).toEqual([["DELETE", 204]]); // sent once
  });

  it("went through CORS preflights, every one allowed", () => {
    const preflights = answered(network).filter(([method]) => method === "OPTIONS");
    expect(preflights.length).toBeGreaterThan(0);
    expect(preflights.every(([, status]) => status === 204)).toBe(true);
    expect(network.corsErrors).toEqual([]);
  });
});

describe(`a page on a foreign origin (http://${EVIL_HOST}:<port>)`, () => {
  let result: Record<string, unknown> = {};
  let network: NetworkLog = { requests: new Map(), corsErrors: [] };

  beforeAll(async () => {
    const opened = await openPage(`http://${EVIL_HOST}:${pages!.port}`);
    try {
      result = await opened.page.evaluate(foreignPage, server.mcpUrl);
      await opened.page.waitForTimeout(200); // let the last CDP events arrive
      network = opened.network;
    } finally {
      await opened.context.close();
    }
  }, 60_000);

  it("cannot initialize: the preflight is refused with 403 and the page's fetch fails", () => {
    expect(result.origin).toBe(`http://${EVIL_HOST}:${pages!.port}`);
    expect(result.initError).toMatch(/^TypeError/);
    expect(result.sessionId).toBeUndefined();
    expect(answered(network)).toContainEqual(["OPTIONS", 403]);
    expect(answered(network).filter(([method]) => method === "POST")).toEqual([]); // never sent
    expect(network.corsErrors.length).toBeGreaterThan(0);
  });

  it("gets 403 for a request that needs no preflight (the server checks Origin itself)", () => {
    expect(result.getError).toMatch(/^TypeError/);
    expect(answered(network)).toContainEqual(["GET", 403]);
  });
});
