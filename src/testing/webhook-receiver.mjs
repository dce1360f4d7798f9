// "mcp-edge/testing/receiver": a webhook receiver for tests, a small node:http server on 127.0.0.1 (Node only;
// types in webhook-receiver.d.mts). It does what a real receiver must (SEP-3415, Standard Webhooks): verifies
// every POST's signature over the raw body against the secrets it trusts (with node:crypto, independently of
// the server's signing code), echoes a verification challenge, optionally publishes
// /.well-known/mcp-webhook-receiver.json, and records every POST for the test to read. Answers can be scripted
// per path (a 500 then a 200, a 410) to test retries. A workerd test drives it over HTTP (connectWebhookReceiver
// in mcp-edge/testing). Deliveries reach it only from a server built with `webhooks: { allowLoopback: true }`
// whose subscribe request arrived on a loopback host.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

/** The receiver's control routes (the same constant as RECEIVER_CONTROL in webhooks.ts). */
const CONTROL = "/__mcp-edge-receiver";
const WELL_KNOWN = "/.well-known/mcp-webhook-receiver.json";
/** Bodies over this are refused with 413, as a receiver may (SEP-3415: deliveries stay at or under 256 KiB). */
const MAX_BODY_BYTES = 256 * 1024;

/** Starts a receiver; see webhook-receiver.d.mts for the options and the handle. */
export async function startWebhookReceiver(options = {}) {
  const state = new ReceiverState(options.wellKnownReceivers);
  const server = createServer((request, response) => {
    state.handle(request, response).catch((error) => {
      console.error("webhook receiver:", error);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    secret: state.secret,
    deliveries: state.deliveries,
    hookUrl: (name) => `${url}/hooks/${name}`,
    received: (query = {}) => state.received(query.path, query.count ?? 0, query.timeoutMs ?? 10_000),
    script: async (script) => state.script(script),
    trust: async (secret) => void state.trusted.add(secret),
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
export function newWebhookSecret() {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Whether a `v1,` entry of `header` is the HMAC-SHA256 of `id.timestamp.body` under `secret` (Standard Webhooks). */
export function verifySignature(secret, header, id, timestamp, body) {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return header.split(" ").some((entry) => {
    if (!entry.startsWith("v1,")) return false;
    const given = Buffer.from(entry.slice(3), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

class ReceiverState {
  deliveries = [];
  scripts = new Map();
  waiters = new Set();

  constructor(wellKnown) {
    this.secret = newWebhookSecret();
    this.trusted = new Set([this.secret]);
    this.wellKnown = wellKnown;
  }

  async handle(request, response) {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith(CONTROL)) return this.control(url, request, response);
    if (url.pathname === WELL_KNOWN && request.method === "GET" && this.wellKnown)
      return send(response, 200, { receivers: this.wellKnown });
    if (request.method !== "POST") return send(response, 404, { error: "not found" });
    const body = await readBody(request);
    if (body === undefined) return send(response, 413, { error: "too large" });
    this.receive(url.pathname, request.headers, body, response);
  }

  receive(path, headers, body, response) {
    const header = (name) => (typeof headers[name] === "string" ? headers[name] : null);
    const webhookId = header("webhook-id");
    const timestamp = header("webhook-timestamp");
    const signature = header("webhook-signature");
    const signedBy = [];
    if (webhookId !== null && timestamp !== null && signature !== null) {
      for (const secret of this.trusted) if (verifySignature(secret, signature, webhookId, timestamp, body)) signedBy.push(secret);
    }
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const type = typeof parsed?.type === "string" ? parsed.type : null;
    const script = this.scripts.get(path);
    let status = 200;
    let answer = {};
    if (type === "verification") answer = { challenge: script?.wrongChallenge ? "not-the-challenge" : parsed.challenge };
    else status = script?.statuses.shift() ?? 200;
    if (signedBy.length === 0) status = 401;
    const subscriptionId = header("x-mcp-subscription-id");
    const contentType = header("content-type");
    this.deliveries.push({
      path,
      webhookId,
      timestamp,
      signature,
      subscriptionId,
      contentType,
      body,
      verified: signedBy.length > 0,
      signedBy,
      type,
      status,
    });
    for (const wake of this.waiters) wake();
    send(response, status, answer);
  }

  script(script) {
    this.scripts.set(script.path, {
      statuses: [...(script.statuses ?? [])],
      wrongChallenge: script.wrongChallenge === true,
      redirectTo: script.redirectTo,
    });
  }

  async control(url, request, response) {
    const action = url.pathname.slice(CONTROL.length);
    if (action === "/info") return send(response, 200, { secret: this.secret });
    if (action === "/received") {
      const path = url.searchParams.get("path") ?? undefined;
      const count = Number(url.searchParams.get("count") ?? 0);
      try {
        return send(response, 200, await this.received(path, count, Number(url.searchParams.get("timeoutMs") ?? 10_000)));
      } catch (error) {
        return send(response, 504, { error: error.message });
      }
    }
    const body = JSON.parse((await readBody(request)) ?? "{}");
    if (action === "/script") this.script(body);
    else if (action === "/trust" && typeof body.secret === "string") this.trusted.add(body.secret);
    else return send(response, 404, { error: `unknown control ${action}` });
    send(response, 200, {});
  }

  /** The records on `path` (all paths when undefined) once `count` are there; rejects after `timeoutMs` naming what it awaited. */
  async received(path, count, timeoutMs) {
    const matching = () => this.deliveries.filter((record) => path === undefined || record.path === path);
    if (matching().length >= count) return matching();
    await new Promise((resolve, reject) => {
      const wake = () => {
        if (matching().length < count) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`webhook receiver: waited ${timeoutMs} ms for ${count} POSTs on ${path ?? "any path"}, got ${matching().length}`));
      }, timeoutMs);
      this.waiters.add(wake);
    });
    return matching();
  }
}

function send(response, status, body, headers = {}) {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
