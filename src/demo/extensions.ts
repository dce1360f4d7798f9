/**
 * The demo's extension tools: a task tool (Tasks extension) that asks, then works with
 * progress, an MCP App (a dice board at `ui://mcp-edge-demo/dice.html`) that renders a
 * tool's result and calls the tool back through its host, and the conformance task fixtures
 * (task-fixtures.ts). Registered by `addExtensionDemos`.
 */
import { text, type EdgeEnv, type ServerDefinition as McpServer } from "../index";
import { uiResource } from "../features/apps/index";
import { addTaskFixtures } from "./task-fixtures";

export const DICE_APP_URI = "ui://mcp-edge-demo/dice.html";

const diceInput = {
  type: "object",
  properties: {
    count: { type: "integer", minimum: 1, maximum: 10, description: "How many dice (default 2)" },
    sides: { type: "integer", minimum: 2, maximum: 100, description: "Sides per die (default 6)" },
  },
} as const;

const diceOutput = {
  type: "object",
  properties: { rolls: { type: "array", items: { type: "integer" } }, total: { type: "integer" }, sides: { type: "integer" } },
  required: ["rolls", "total", "sides"],
} as const;

function roll(count: number, sides: number): number[] {
  const bytes = crypto.getRandomValues(new Uint32Array(count));
  return [...bytes].map((b) => (b % sides) + 1);
}

/**
 * The dice board: plain HTML and script speaking the MCP Apps postMessage dialect
 * (ui/initialize, then tool results pushed by the host, and tools/call back through it).
 */
const DICE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dice</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#f6f7f9;color:#1d2433}
h1{font-size:18px;margin:0 0 12px}
#dice{display:flex;gap:8px;flex-wrap:wrap;min-height:56px}
.die{width:52px;height:52px;border-radius:10px;background:#fff;border:2px solid #2f6fed;display:flex;align-items:center;justify-content:center;font-size:22px;font-weight:700}
#total{margin:12px 0;font-size:15px}
button{font-size:15px;padding:8px 14px;border-radius:8px;border:0;background:#2f6fed;color:#fff;cursor:pointer}
#status{margin-top:10px;font-size:12px;color:#5b6475}
</style></head>
<body>
<h1>mcp-edge dice</h1>
<div id="dice"></div>
<div id="total">Waiting for a roll…</div>
<button id="again" disabled>Roll again</button>
<div id="status">connecting to the host…</div>
<script>
(function () {
  var nextId = 1, pending = {}, last = { count: 2, sides: 6 };
  function send(message) { window.parent.postMessage(message, "*"); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: "2.0", id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function status(text) { document.getElementById("status").textContent = text; }
  function show(result) {
    var data = result && result.structuredContent;
    if (!data || !Array.isArray(data.rolls)) { status("the tool returned no rolls"); return; }
    last = { count: data.rolls.length, sides: data.sides };
    var box = document.getElementById("dice");
    box.textContent = "";
    data.rolls.forEach(function (n) { var d = document.createElement("div"); d.className = "die"; d.textContent = String(n); box.appendChild(d); });
    document.getElementById("total").textContent = "Total: " + data.total + " (" + data.rolls.length + "d" + data.sides + ")";
    send({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: document.body.scrollWidth, height: document.body.scrollHeight } });
  }
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var m = event.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id != null && pending[m.id] && ("result" in m || "error" in m)) {
      var p = pending[m.id]; delete pending[m.id];
      if (m.error) p.reject(m.error); else p.resolve(m.result);
      return;
    }
    if (m.method === "ui/notifications/tool-result") show(m.params);
    if (m.method === "ui/notifications/tool-input" && m.params && m.params.arguments) last = Object.assign(last, m.params.arguments);
    if (m.method === "ui/resource-teardown" && m.id != null) send({ jsonrpc: "2.0", id: m.id, result: {} });
  });
  document.getElementById("again").addEventListener("click", function () {
    status("rolling through the host…");
    request("tools/call", { name: "roll_dice", arguments: last }).then(function (result) { show(result); status("rolled by the server"); },
      function (error) { status("the host refused: " + (error && error.message)); });
  });
  request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "mcp-edge-dice", version: "1.0.0" }, appCapabilities: {} })
    .then(function () {
      send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
      document.getElementById("again").disabled = false;
      status("connected");
    }, function (error) { status("initialize failed: " + (error && error.message)); });
})();
</script>
</body></html>`;

/** The dice board page, a value made once and added to the server (mcp-edge/apps). */
const DICE_BOARD = uiResource<EdgeEnv>(
  DICE_APP_URI,
  { name: "dice-board", title: "Dice board", description: "Shows a roll of dice and rolls again through the host", prefersBorder: true },
  () => DICE_PAGE,
);

/** Adds the extension demos to a server (one call from the demo's definition). */
export function addExtensionDemos(server: McpServer<EdgeEnv>): void {
  addTaskFixtures(server);
  server.add(DICE_BOARD);

  server.tool(
    "roll_dice",
    {
      title: "Roll dice",
      description: "Rolls dice on the server; hosts with MCP Apps show the result on a dice board that can roll again",
      input: diceInput,
      output: diceOutput,
      ui: { resourceUri: DICE_APP_URI },
    },
    ({ count, sides }) => {
      const n = typeof count === "number" ? count : 2;
      const s = typeof sides === "number" ? sides : 6;
      const rolls = roll(n, s);
      const total = rolls.reduce((a, b) => a + b, 0);
      return { content: [text(`Rolled ${n}d${s}: ${rolls.join(", ")} (total ${total})`)], structuredContent: { rolls, total, sides: s } };
    },
  );

  server.interactiveTool(
    "build_report",
    {
      title: "Build a report (task)",
      description: "A long job: asks for a title, then works in steps with progress. Runs as a task for clients with the Tasks extension",
      input: {
        type: "object",
        properties: { steps: { type: "integer", minimum: 1, maximum: 20, description: "Work steps of 200 ms (default 5)" } },
      },
      task: { support: "optional", resumable: true },
    },
    async ({ steps }, ctx) => {
      const total = typeof steps === "number" ? steps : 5;
      const answer = await ctx.elicit("Title of the report?", {
        type: "object",
        properties: { title: { type: "string" } },
        required: ["title"],
      });
      if (answer.action !== "accept") return { content: [text("No report: the title was declined")] };
      // Side effects belong after the last ask: a resumed run replays the asks, not the work before them.
      for (let i = 1; i <= total; i++) {
        await scheduler.wait(200, { signal: ctx.signal });
        await ctx.progress(i, total, `step ${i} of ${total}`);
      }
      return { content: [text(`Report "${String(answer.content.title)}": ${total} steps done`)] };
    },
  );
}
