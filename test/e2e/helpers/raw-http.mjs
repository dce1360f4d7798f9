// One HTTP/1.1 request written byte for byte on a TCP socket: for request shapes no HTTP client
// library sends (an absolute-form target to an origin server, RFC 9112 §3.2.2).
import { connect } from "node:net";

/** Sends `lines` (request line and headers) and `body` to 127.0.0.1:`port`; resolves the status and body. */
export function rawRequest(port, lines, body = "") {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
      resolve({ status, body: received.slice(received.indexOf("\r\n\r\n") + 4) });
    });
    const head = [...lines, `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", ""].join("\r\n");
    socket.write(head + body);
  });
}
