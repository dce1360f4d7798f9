// What one `__name` call costs per request: `node bench/name-cost.mjs [--n 1000000]`. wrangler bundles
// with esbuild's keep_names, which wraps every arrow assigned to a property in `__name(fn, "name")`
// (an Object.defineProperty); a method is named by the language and costs nothing. Builds the same
// per-request object (the 2026-07-28 lane's channel: four functions) both ways with esbuild as
// wrangler runs it, then times building it in alternating rounds on this Node's V8 (workerd's engine):
// CPU time per object, median of the rounds. docs/engine-notes.md "Methods, not arrow properties" cites it.
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values } = parseArgs({ options: { n: { type: "string", default: "1000000" }, rounds: { type: "string", default: "7" } } });
const [N, ROUNDS] = [Number(values.n), Number(values.rounds)];

const SOURCE = `
export function withMethods(reply, lane) {
  return {
    notify(method, params) { return reply.push([method, params]); },
    request(method, params, _from, key) { return lane.ask(method, params, key); },
    closeStream() {},
    logLevel() { return lane.level ?? "none"; },
  };
}
export function withArrows(reply, lane) {
  return {
    notify: (method, params) => reply.push([method, params]),
    request: (method, params, _from, key) => lane.ask(method, params, key),
    closeStream: () => {},
    logLevel: () => lane.level ?? "none",
  };
}`;
const bundle = await build({ stdin: { contents: SOURCE }, bundle: true, write: false, format: "esm", keepNames: true, minify: true });
const { withMethods, withArrows } = await import(
  `data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`
);

const reply = { push() {} };
const lane = { ask() {}, level: "info" };
let sink = 0;
/** CPU nanoseconds per object built (and one of its functions called, so nothing is optimized away). */
function nsPerObject(make) {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) sink += make(reply, lane).logLevel().length;
  const spent = process.cpuUsage(start);
  return ((spent.user + spent.system) * 1000) / N;
}
const [methods, arrows] = [[], []];
for (let round = 0; round < ROUNDS; round++) {
  methods.push(nsPerObject(withMethods));
  arrows.push(nsPerObject(withArrows));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [m, a] = [median(methods), median(arrows)];
console.log(
  `node ${process.versions.node}, ${N} objects x ${ROUNDS} rounds (median, CPU time), ${sink > 0 ? "" : "(no work?) "}four functions each:`,
);
console.log(`methods:                 ${m.toFixed(1)} ns/object`);
console.log(`arrows (four __name):    ${a.toFixed(1)} ns/object, ${((a - m) / 4).toFixed(0)} ns per __name call`);
