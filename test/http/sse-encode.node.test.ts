/** SSE frame formatting (WHATWG HTML "Server-sent events" > Parsing an event stream). */
import { describe, expect, it } from "vitest";
import { encodeSseComment, encodeSseEvent, KEEPALIVE_FRAME, SSE_HEADERS } from "../../src/wire/sse";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("encodeSseEvent", () => {
  it("frames data as a message event ended by a blank line", () => {
    expect(decode(encodeSseEvent('{"jsonrpc":"2.0"}'))).toBe('event: message\ndata: {"jsonrpc":"2.0"}\n\n');
  });

  it("puts the id line first when an id is given", () => {
    expect(decode(encodeSseEvent("{}", "3:17"))).toBe("id: 3:17\nevent: message\ndata: {}\n\n");
  });

  it("adds a retry line after the id", () => {
    expect(decode(encodeSseEvent("{}", "1:0", 1000))).toBe("id: 1:0\nretry: 1000\nevent: message\ndata: {}\n\n");
  });

  it("frames a priming event as an id with empty data and no event type", () => {
    expect(decode(encodeSseEvent("", "1:0", 500))).toBe("id: 1:0\nretry: 500\ndata: \n\n");
  });

  it("keeps non-ASCII text as UTF-8", () => {
    const bytes = encodeSseEvent('"é✓"');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(decode(bytes)).toBe('event: message\ndata: "é✓"\n\n');
  });
});

describe("comments", () => {
  it("frames a keep-alive as a comment line", () => {
    expect(decode(KEEPALIVE_FRAME)).toBe(": keepalive\n\n");
  });

  it("turns line breaks inside a comment into spaces so it stays one comment", () => {
    expect(decode(encodeSseComment("a\nb\r\nc"))).toBe(": a b  c\n\n");
  });
});

describe("SSE_HEADERS", () => {
  it("declares text/event-stream and forbids caching and transformation", () => {
    expect(SSE_HEADERS["Content-Type"]).toBe("text/event-stream");
    // no-store, not no-cache: Chromium kept a no-cache stream in its HTTP cache and then sent a later DELETE twice.
    expect(SSE_HEADERS["Cache-Control"]).toContain("no-store");
    expect(SSE_HEADERS["Cache-Control"]).toContain("no-transform");
  });
});
