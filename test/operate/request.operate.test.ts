/**
 * ctx.request: the HTTP request that started a call, the same in the Worker (both eras), the
 * session object and a task's run: its URL, method and headers, without Authorization, Cookie
 * or mcp-edge's internal headers, in every place.
 */
import { describe, expect, it } from "vitest";
import { MCP } from "../helpers/mcp";
import { calls } from "../servers/operate/entry";
import { callIn, PLACES, textOf, whoamiFor } from "./helpers";

const CLIENT_HEADERS = {
  "X-Tenant": "acme",
  "User-Agent": "operate-test/1.0",
  Authorization: "Bearer secret-token",
  Cookie: "sid=secret-cookie",
  "X-Mcp-Edge-Cf": encodeURIComponent(JSON.stringify({ country: "forged" })),
};

/** What Cloudflare's edge puts in `request.cf` (a few of its fields). */
const CF = { country: "NL", colo: "AMS", city: "Zürich", asn: 1136 };

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  cf: Record<string, unknown> | undefined;
  frozen: boolean;
  tenant: string | null;
  isHeaders: boolean;
  setRefused: string | null;
  deleteRefused: string | null;
}

describe.each(PLACES)("ctx.request in the %s", (place) => {
  it("is the client's request: URL, method and its headers, read-only", async () => {
    const answer = await callIn(place, whoamiFor(place), { headers: CLIENT_HEADERS, cf: CF });
    const seen = JSON.parse(textOf(answer)) as Seen;
    expect(seen.url).toBe(MCP);
    expect(seen.cf).toEqual(CF);
    expect(seen.method).toBe("POST");
    expect(seen.headers["x-tenant"]).toBe("acme");
    expect(seen.headers["user-agent"]).toBe("operate-test/1.0");
    expect(seen.headers["content-type"]).toBe("application/json");
    expect(seen.frozen).toBe(true);
  });

  it("gives headers as a read-only Headers: get is case-insensitive, set and delete throw", async () => {
    const answer = await callIn(place, whoamiFor(place), { headers: CLIENT_HEADERS, cf: CF });
    const seen = JSON.parse(textOf(answer)) as Seen;
    expect(seen.isHeaders).toBe(true);
    expect(seen.tenant).toBe("acme");
    expect(seen.setRefused).toMatch(/ctx\.request\.headers is read-only \(headers\.set\)/);
    expect(seen.deleteRefused).toMatch(/read-only \(headers\.delete\)/);
    // The refused set left the header as it was.
    expect(seen.headers["x-tenant"]).toBe("acme");
  });

  it("never carries Authorization, Cookie or mcp-edge's internal headers", async () => {
    const answer = await callIn(place, whoamiFor(place), { headers: CLIENT_HEADERS, cf: CF });
    const seen = JSON.parse(textOf(answer)) as Seen;
    const names = Object.keys(seen.headers);
    expect(names).not.toContain("authorization");
    expect(names).not.toContain("cookie");
    expect(names.filter((n) => n.startsWith("x-mcp-edge-"))).toEqual([]);
    expect(textOf(answer)).not.toContain("secret-");
    // A client cannot forge the cf properties the Worker passes to the object.
    expect(seen.cf?.country).toBe("NL");
  });

  it("is what middleware sees too", async () => {
    calls.length = 0;
    await callIn(place, whoamiFor(place), { headers: CLIENT_HEADERS });
    const seenByMiddleware = calls.filter((c) => c.method === "tools/call").map((c) => c.ctx.request?.headers.get("X-Tenant"));
    expect(seenByMiddleware.length).toBeGreaterThan(0);
    expect(new Set(seenByMiddleware)).toEqual(new Set(["acme"]));
  });
});
