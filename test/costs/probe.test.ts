import { it } from "vitest";
import { call, openSession } from "../helpers/mcp";
import { getStream } from "../helpers/session";
import { billed, requestsOf, resetMeter } from "./meter";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
it("probe", async () => {
  resetMeter();
  const s = await openSession("2025-11-25");
  await call(s.sessionId, s.version, "tools/call", { name: "echo", arguments: { text: "x" } });
  await sleep(2500);
  console.log("short", JSON.stringify(billed()), requestsOf(s.sessionId));
  resetMeter();
  const t = await openSession("2025-11-25");
  const g = await getStream(t);
  await call(t.sessionId, t.version, "tools/call", { name: "echo", arguments: { text: "x" } });
  await sleep(300);
  await g.body?.cancel();
  await sleep(4000);
  console.log("stream", JSON.stringify(billed()), requestsOf(t.sessionId));
}, 20000);
