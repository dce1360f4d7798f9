// Runs `mcp-edge doctor` as users do (the package's bin, a Node process of its own) and, for the
// allowed-hosts case, a proxy that forwards to a local Worker under another host name (what a
// deployment's own domain looks like to the Worker: every request names that Host).
import { execFile } from "node:child_process";
import { request, createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "bin/mcp-edge.mjs");

/**
 * @param {string[]} args
 * @param {{ nodeArgs?: string[], killAfterMs?: number }} [how] Node options (e.g. --import a preload), and when to
 *   kill a doctor that has not exited (the run then rejects: a doctor that does not end is a failure)
 */
export function runDoctor(args, how = {}) {
  const argv = [...(how.nodeArgs ?? []), BIN, "doctor", ...args];
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, argv, { timeout: how.killAfterMs ?? 60_000 }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      if (typeof code !== "number") return reject(error);
      let report;
      try {
        report = args.includes("--json") ? JSON.parse(stdout) : undefined;
      } catch {}
      resolvePromise({ code, stdout, stderr, report });
    });
  });
}

/** @param {string} target @param {string} host */
export function startHostProxy(target, host) {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    // Requests to the proxy's own address go on as `host`; one that names another host keeps it
    // (as a CDN routes by Host), so the doctor's foreign-Host check still reaches the Worker.
    const own = req.headers.host === `127.0.0.1:${server.address().port}`;
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: own ? host : req.headers.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  return new Promise((resolvePromise) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      resolvePromise({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done(undefined));
            server.closeAllConnections();
          }),
      });
    });
  });
}
