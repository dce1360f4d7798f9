/**
 * Where a webhook may go (SEP-3415 "SSRF prevention"): only `https` to a globally routable address, checked
 * at subscribe time and again before every delivery and verification (the name's A and AAAA records are
 * resolved then, so a name rebound to a private address is refused). Literal addresses are judged against
 * the IANA special-purpose registries; names that only resolve inside a network (`localhost`, `*.local`,
 * `*.internal`, a single label) are refused without a lookup. The one exception is a loopback receiver
 * (`http://127.0.0.1:<port>`) for a subscription the server allowed it for (tests and `wrangler dev`).
 * Every refusal says why, in words a developer can act on.
 */

export type AddressCheck = { ok: true; url: URL; literal: boolean } | { ok: false; reason: string };

const LOOPBACK_NAMES = /^(localhost|[a-z0-9.-]+\.localhost)$/i;
/** Special-use names (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal) that never name a public host. */
const PRIVATE_SUFFIXES = [".local", ".localhost", ".internal", ".home.arpa", ".localdomain", ".lan", ".intranet", ".corp"];

/**
 * The callback URL if a webhook may be sent there, or why not. `loopback`: a loopback receiver is allowed
 * (plain http too, since a local receiver has no certificate).
 */
export function checkCallbackUrl(raw: unknown, loopback: boolean): AddressCheck {
  if (typeof raw !== "string" || raw.length === 0)
    return { ok: false, reason: "delivery.url is required: the https URL deliveries are POSTed to" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `delivery.url is not a URL: ${raw.slice(0, 200)}` };
  }
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "delivery.url must not carry credentials (user:password@)" };
  const host = url.hostname.toLowerCase();
  const loopbackHost = isLoopbackHost(host);
  if (loopback && loopbackHost && (url.protocol === "http:" || url.protocol === "https:")) return { ok: true, url, literal: true };
  if (url.protocol !== "https:")
    return {
      ok: false,
      reason: `delivery.url must use https (got ${url.protocol.replace(":", "")}): deliveries and their secret never travel in cleartext`,
    };
  const refused = refusalOfHost(host);
  if (refused !== undefined) return { ok: false, reason: refused };
  return { ok: true, url, literal: isIpLiteral(host) };
}

/** Why a resolved address may not receive webhooks, or undefined when it is globally routable. */
export function refusalOfAddress(address: string): string | undefined {
  const v4 = parseIpv4(address);
  if (v4 !== undefined)
    return isGlobalIpv4(v4) ? undefined : `${address} is not a globally routable address (private, loopback, link-local or reserved)`;
  const v6 = parseIpv6(address);
  if (v6 !== undefined)
    return isGlobalIpv6(v6) ? undefined : `${address} is not a globally routable address (private, loopback, link-local or reserved)`;
  return `${address} is not an IP address`;
}

function refusalOfHost(host: string): string | undefined {
  if (isIpLiteral(host)) {
    const address = host.startsWith("[") ? host.slice(1, -1) : host;
    const refused = refusalOfAddress(address);
    return refused === undefined ? undefined : `delivery.url: ${refused}`;
  }
  if (LOOPBACK_NAMES.test(host)) return `delivery.url: ${host} names this machine (loopback), which webhooks are never sent to`;
  if (!host.includes(".")) return `delivery.url: ${host} is a single-label name, which only resolves inside a private network`;
  const suffix = PRIVATE_SUFFIXES.find((end) => host.endsWith(end));
  if (suffix !== undefined) return `delivery.url: ${host} is under ${suffix}, a name that only resolves inside a private network`;
  return undefined;
}

function isLoopbackHost(host: string): boolean {
  if (LOOPBACK_NAMES.test(host) || host === "[::1]") return true;
  const v4 = parseIpv4(host);
  return v4 !== undefined && v4[0] === 127;
}

function isIpLiteral(host: string): boolean {
  return host.startsWith("[") || parseIpv4(host) !== undefined;
}

function parseIpv4(text: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** IPv4 ranges the IANA special-purpose registry marks not globally reachable (or that are multicast/reserved). */
const IPV4_NOT_GLOBAL: readonly [number, number, number, number, number][] = [
  [0, 0, 0, 0, 8],
  [10, 0, 0, 0, 8],
  [100, 64, 0, 0, 10],
  [127, 0, 0, 0, 8],
  [169, 254, 0, 0, 16],
  [172, 16, 0, 0, 12],
  [192, 0, 0, 0, 24],
  [192, 0, 2, 0, 24],
  [192, 88, 99, 0, 24],
  [192, 168, 0, 0, 16],
  [198, 18, 0, 0, 15],
  [198, 51, 100, 0, 24],
  [203, 0, 113, 0, 24],
  [224, 0, 0, 0, 4],
  [240, 0, 0, 0, 4],
];

function isGlobalIpv4(octets: readonly number[]): boolean {
  const value = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  return !IPV4_NOT_GLOBAL.some(([a, b, c, d, bits]) => {
    const base = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (value & mask) >>> 0 === base;
  });
}

/** Eight 16-bit groups, or undefined when `text` is not an IPv6 address (an embedded IPv4 tail is accepted). */
function parseIpv6(text: string): number[] | undefined {
  if (!text.includes(":")) return undefined;
  const v4 = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  let hex = text;
  if (v4) {
    const octets = parseIpv4(v4[1]!);
    if (!octets) return undefined;
    const high = ((octets[0]! << 8) | octets[1]!).toString(16);
    const low = ((octets[2]! << 8) | octets[3]!).toString(16);
    hex = `${text.slice(0, -v4[1]!.length)}${high}:${low}`;
  }
  const halves = hex.split("::");
  if (halves.length > 2) return undefined;
  const left = groupsOf(halves[0]);
  const right = groupsOf(halves[1]);
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.some(Number.isNaN) ? undefined : groups;
}

/** The 16-bit groups of one side of `::` (NaN for a group that is not 1-4 hex digits). */
function groupsOf(part: string | undefined): number[] {
  if (!part) return [];
  return part.split(":").map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? Number.parseInt(group, 16) : Number.NaN));
}

/**
 * Only global unicast (2000::/3) is routable, minus its special-purpose blocks; an IPv4-mapped address is
 * judged as the IPv4 address it carries (a `::ffff:127.0.0.1` is loopback).
 */
function isGlobalIpv6(groups: readonly number[]): boolean {
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return isGlobalIpv4([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
  const first = groups[0]!;
  if ((first & 0xe000) !== 0x2000) return false;
  if (first === 0x2001 && groups[1]! < 0x0200) return false; // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID)
  if (first === 0x2001 && groups[1] === 0x0db8) return false; // 2001:db8::/32 documentation
  if (first === 0x2002) return false; // 2002::/16 6to4, which can carry any IPv4 address
  return true;
}
