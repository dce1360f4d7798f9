// MCP Apps in a browser: headless Chromium loads a host page built on @modelcontextprotocol/ext-apps'
// AppBridge, which reads roll_dice's ui:// page from the real Worker (wrangler dev), renders it in a
// sandboxed iframe and pushes a tool result to it; clicking "Roll again" in the page calls the tool
// back through the bridge to the Worker. A screenshot goes to results/artifacts/mcp-app-dice.png.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useWorker } from "../helpers/server";
import { startAppHostPage } from "./helpers/app-host-page.mjs";
import { launchChromium } from "./helpers/browser.mjs";

const server = useWorker();
let host: Awaited<ReturnType<typeof startAppHostPage>> | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  host = await startAppHostPage();
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe("the demo's dice board in an ext-apps host", () => {
  it("renders the tool result and rolls again by calling the tool back through the host", async () => {
    const context = await browser!.newContext({ viewport: { width: 520, height: 380 } });
    try {
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error("[host page error]", e.message));
      await page.goto(host!.url);
      const state = await page.evaluate((endpoint) => window.startHost(endpoint), `${server.url}/stateless/mcp`);
      expect(state.mimeType).toBe("text/html;profile=mcp-app");
      expect(state.resourceMeta).toEqual({ ui: { prefersBorder: true } });

      const app = page.frameLocator("iframe");
      await app.locator("#status", { hasText: "connected" }).waitFor();
      await app.locator("#total", { hasText: "(3d6)" }).waitFor();
      expect(await app.locator(".die").count()).toBe(3);

      await app.locator("#again").click();
      await app.locator("#status", { hasText: "rolled by the server" }).waitFor();
      const calls = await page.evaluate(() => (window as unknown as { hostState: { calls: string[] } }).hostState.calls);
      expect(calls).toEqual(["roll_dice"]);
      expect(await app.locator(".die").count()).toBe(3);
      for (const face of await app.locator(".die").allTextContents()) expect(Number(face)).toBeGreaterThanOrEqual(1);

      await page.screenshot({ path: "results/artifacts/mcp-app-dice.png" });
    } finally {
      await context.close();
    }
  });
});
