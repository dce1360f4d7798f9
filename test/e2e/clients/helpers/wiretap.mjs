// A recording reverse proxy on 127.0.0.1 in front of the Worker: it forwards every request
// unchanged (Host rewritten to the Worker's), streams the answer back as it comes (SSE included)
// and keeps a copy of each exchange, so a test can see what a client that hides its HTTP traffic
// (Inspector CLI, mcp-remote) actually sent and got: the initialize exchange and the protocol
// revision the server answered with, session ids, methods, status codes.

import { createServer, request as httpRequest } from "node:http";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

const KEPT_BODY_CHARS = 256 * 1024;

function decoderFor(encoding) {
  switch (
    String(encoding ?? "")
      .trim()
      .toLowerCase()
  ) {
    case "gzip":
    case "x-gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/** @param {string} target origin of the Worker, e.g. http://127.0.0.1:8787 */
export async function startWiretap(target) {
  const upstream = new URL(target);
  /** @type {import("./wiretap.d.mts").Exchange[]} */
  const exchanges = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const exchange = {
        method: req.method,
        path: req.url,
        requestHeaders: req.headers,
        requestBody: body.toString("utf8").slice(0, KEPT_BODY_CHARS),
        status: 0,
        responseHeaders: {},
        responseBody: "",
      };
      exchanges.push(exchange);
      const headers = { ...req.headers, host: upstream.host };
      const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        exchange.status = answer.statusCode ?? 0;
        exchange.responseHeaders = answer.headers;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // The client gets the bytes as they came; the recorded copy is decoded.
        const decoder = decoderFor(answer.headers["content-encoding"]);
        const keep = (c) => {
          if (exchange.responseBody.length < KEPT_BODY_CHARS) exchange.responseBody += c.toString("utf8");
        };
        decoder?.on("data", keep);
        decoder?.on("error", () => {});
        answer.on("data", (c) => {
          if (decoder) decoder.write(c);
          else keep(c);
          res.write(c);
        });
        answer.on("end", () => {
          decoder?.end();
          res.end();
        });
        answer.on("error", () => res.destroy());
      });
      out.on("error", (err) => {
        exchange.status = 502;
        exchange.error = err.message;
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
        res.end(`wiretap: ${err.message}`);
      });
      // The client hung up (e.g. it closed an SSE stream): hang up upstream too.
      res.on("close", () => out.destroy());
      out.end(body);
    });
  });
  await new Promise((resolveListen, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, resolveListen);
  });
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r(undefined)));
    },
  };
}

/** The JSON-RPC messages in a body: a JSON value (message or batch) or SSE `data:` lines. */
export function jsonRpcMessages(body, contentType = "") {
  const parse = (text) => {
    try {
      const value = JSON.parse(text);
      return Array.isArray(value) ? value : [value];
    } catch {
      return [];
    }
  };
  if (String(contentType).includes("text/event-stream")) {
    const messages = [];
    for (const event of body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data) messages.push(...parse(data));
    }
    return messages;
  }
  return parse(body);
}

/**
 * What the recorded traffic says about the handshakes: for each initialize (in order) the index of
 * its exchange, the client's name, the revision it asked for, the one the server answered with and
 * the session id it got; `requested`/`negotiated`/`sessionId` are those of the last handshake;
 * `methods` are the JSON-RPC methods the client sent, in order.
 */
export function summarise(exchanges) {
  const handshakes = [];
  const methods = [];
  exchanges.forEach((x, index) => {
    const sent = x.method === "POST" ? jsonRpcMessages(x.requestBody, "application/json") : [];
    for (const m of sent) if (typeof m?.method === "string") methods.push(m.method);
    const init = sent.find((m) => m?.method === "initialize");
    if (!init) return;
    const answer = jsonRpcMessages(x.responseBody, x.responseHeaders["content-type"]).find((m) => m?.id === init.id && m.result);
    handshakes.push({
      index,
      clientName: init.params?.clientInfo?.name,
      requested: init.params?.protocolVersion,
      negotiated: answer?.result?.protocolVersion,
      sessionId: answer ? x.responseHeaders["mcp-session-id"] : undefined,
    });
  });
  const last = handshakes[handshakes.length - 1];
  return { handshakes, requested: last?.requested, negotiated: last?.negotiated, sessionId: last?.sessionId, methods };
}
