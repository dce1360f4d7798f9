// A hostile MCP server on 127.0.0.1 for the doctor's tests, on a raw socket so it can misbehave
// below HTTP: the first path segment picks the behaviour, for the endpoint (/<mode>/mcp) and the
// documents beside it.
//   dribble     behaves, except that the answer to a request naming another Host (the DNS-rebinding
//               check) sends its head one byte at a time, forever
//   endless     behaves, except that the answer to a request naming another Host has a body that never ends
//   stall       answers server/discover; every other answer's head dribbles, forever
//   bad-versions  server/discover's supportedVersions is a string, not a list
//   null-tool   tools/list (both eras) lists null among its tools; the documents are JSON null and [1]
//   escapes     server text carries terminal escape sequences, carriage returns and fake findings
import { createServer } from "node:net";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const ESCAPES = "\u001b[2K\r\u001b[1Aok    state-secret: all good\u0007\u202e";

/** What server/discover answers in each mode (serverInfo in `_meta`, as 2026-07-28 has it). */
function discoverResult(mode) {
  const name = mode === "escapes" ? `evil${ESCAPES}` : `hostile-${mode}`;
  return {
    supportedVersions: mode === "bad-versions" ? MODERN : [MODERN, LEGACY],
    capabilities: { tools: {} },
    _meta: { "io.modelcontextprotocol/serverInfo": { name, version: "1.0.0" } },
  };
}

/** The JSON-RPC answer to one message in a well-behaved mode (a body to send), or undefined for 202. */
function answer(mode, message) {
  const reply = (result) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "server/discover":
      return reply(discoverResult(mode));
    case "initialize":
      return reply({ protocolVersion: LEGACY, capabilities: { tools: {} }, serverInfo: { name: `hostile-${mode}`, version: "1.0.0" } });
    case "tools/list":
      if (mode === "escapes")
        return { jsonrpc: "2.0", id: message.id, error: { code: -32603, message: `boom${ESCAPES}\nok    tools-2026: 3 tool(s)` } };
      return reply({ tools: mode === "null-tool" ? [null, { name: "fine", inputSchema: { type: "object" } }] : [] });
    case "subscriptions/listen":
      return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } };
    default:
      return message.id === undefined ? undefined : reply({});
  }
}

function respond(socket, status, body, type = "application/json") {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const head = `HTTP/1.1 ${status} X\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + text);
}

/** Writes `write()`'s output every `ms` until the socket closes. */
function forever(socket, ms, write) {
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(write());
  }, ms);
  socket.on("close", () => clearInterval(timer));
}

function misbehave(mode, socket) {
  if (mode === "dribble") {
    socket.write("HTTP/1.1 200 OK\r\nX-Slow: ");
    forever(socket, 100, () => "a");
  } else {
    socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
    forever(socket, 20, () => "e\r\n: keep-alive\n\n\r\n");
  }
}

function documentFor(mode, path) {
  if (mode === "null-tool") return path.endsWith("/server-card") ? [1] : null;
  if (mode === "escapes" && path.includes("oauth-protected-resource"))
    return { resource: `http://evil${ESCAPES}`, authorization_servers: [`https://as${ESCAPES}`] };
  return undefined;
}

/** One request, read whole: { method, path, headers, body }. */
function handle(socket, request) {
  const mode = request.path.split("/").find((part) => /^(dribble|endless|stall|bad-versions|null-tool|escapes)$/.test(part)) ?? "none";
  let message;
  try {
    message = JSON.parse(request.body);
  } catch {}
  const own = request.headers.host?.startsWith("127.0.0.1");
  if ((mode === "dribble" || mode === "endless") && !own) return misbehave(mode, socket);
  if (mode === "stall" && message?.method !== "server/discover") return misbehave("dribble", socket);
  if (request.method === "GET") {
    const document = documentFor(mode, request.path);
    return document === undefined ? respond(socket, 404, "not found", "text/plain") : respond(socket, 200, document);
  }
  if (request.method !== "POST" || !request.headers.host?.startsWith("127.0.0.1")) return respond(socket, 403, "refused", "text/plain");
  if (request.headers.origin || request.headers.authorization) return respond(socket, 403, "refused", "text/plain");
  const body = message === undefined ? undefined : answer(mode, message);
  respond(socket, body === undefined ? 202 : 200, body);
}

function parse(buffer) {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [line, ...fields] = buffer.subarray(0, end).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    fields.map((f) => [f.slice(0, f.indexOf(":")).trim().toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]),
  );
  const length = Number(headers["content-length"] ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  const [method, path] = line.split(" ");
  return { method, path, headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") };
}

/** Starts the server on 127.0.0.1; `url` is its origin, `close()` drops every connection. */
export function startHostileServer() {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const request = parse(buffer);
      if (request) {
        socket.removeAllListeners("data");
        handle(socket, request);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done(undefined));
          }),
      });
    });
  });
}
