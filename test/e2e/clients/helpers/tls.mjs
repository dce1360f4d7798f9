// A throwaway TLS identity for 127.0.0.1 made at test time with openssl (a self-signed P-256
// certificate valid for one day, subjectAltName IP:127.0.0.1 and DNS:localhost), and a fetch that
// trusts exactly that certificate: an undici Agent whose `ca` is the certificate alone, so the
// system roots are not consulted and nothing is switched off globally.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";

export function createCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "mcp-edge-tls-"));
  const keyPath = join(dir, "key.pem");
  const certPath = join(dir, "cert.pem");
  const args = [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-keyout",
    keyPath,
    "-out",
    certPath,
  ];
  const run = spawnSync("openssl", args, { encoding: "utf8", timeout: 30_000 });
  if (run.error || run.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const why =
      run.error?.code === "ENOENT" ? "openssl is not installed (apt-get install openssl)" : `${run.error?.message ?? ""}${run.stderr}`;
    throw new Error(`could not create a test certificate: ${why}`);
  }
  return {
    dir,
    keyPath,
    certPath,
    certPem: readFileSync(certPath, "utf8"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** @param {string} caPem */
export function fetchTrusting(caPem) {
  const agent = new Agent({ connect: { ca: caPem } });
  return {
    fetch: (input, init) => undiciFetch(input, { ...init, dispatcher: agent }),
    close: () => agent.close(),
  };
}
