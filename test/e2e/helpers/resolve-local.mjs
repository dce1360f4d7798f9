// A preload (node --import) for the doctor's tests: host names ending in ".doctor.test" resolve to
// 127.0.0.1, so a doctor run can reach a local Worker by a name that is not loopback, as it
// reaches a deployment. Every other name resolves as usual.
import dns from "node:dns";

const resolveAsUsual = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  if (!String(hostname).endsWith(".doctor.test")) return resolveAsUsual.call(this, hostname, options, callback);
  const done = typeof options === "function" ? options : callback;
  const all = typeof options === "object" && options?.all;
  process.nextTick(() => (all ? done(null, [{ address: "127.0.0.1", family: 4 }]) : done(null, "127.0.0.1", 4)));
};
