/**
 * One webhook POST and one endpoint verification, over the SSRF-hardened path (SEP-3415 "Webhook security"):
 * the destination checked again right before connecting (its name resolved and every address judged), no
 * redirect followed, a bounded wait, and the outcome reduced to a `lastError` category: nothing the endpoint
 * answered (status line, headers, body) is ever kept or reported. Each attempt is signed with a fresh timestamp.
 */
import { checkCallbackUrl, refusalOfAddress } from "./webhooks-address";
import type { WebhookErrorCategory } from "./webhooks-contract";
import { equalInConstantTime, signWebhook } from "./webhooks-signing";

/** How long an endpoint has to answer one POST (SEP-3415: "on the order of 5 seconds is common"). */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** The most of an endpoint's answer ever read: a challenge echo is tiny, and nothing else is read at all. */
const MAX_ECHO_BYTES = 4_096;
const HEADER_SUBSCRIPTION_ID = "X-MCP-Subscription-Id";
const WELL_KNOWN_RECEIVER = "/.well-known/mcp-webhook-receiver.json";

/** A host name's addresses (A and AAAA), for the check at delivery time; undefined when the name does not resolve. */
export type Resolver = (host: string) => Promise<string[] | undefined>;

/** Where a POST goes and who may receive it. */
export interface Destination {
  readonly url: string;
  /** Whether the subscription may deliver to a loopback receiver (granted at subscribe time on a loopback host). */
  readonly loopback: boolean;
  readonly subscriptionId: string;
}

/** A message as signed and sent. */
export interface Envelope {
  readonly webhookId: string;
  readonly body: string;
  /** The signing keys: the current secret's, then the previous one's during a rotation. */
  readonly keys: readonly Uint8Array<ArrayBuffer>[];
}

export type AttemptOutcome = { ok: true; response: Response } | { ok: false; error: WebhookErrorCategory; retry: boolean };

/** POSTs one signed envelope; a 2xx is success, 410 and 413 are final, anything else may be retried. */
export async function post(destination: Destination, envelope: Envelope, resolve: Resolver): Promise<AttemptOutcome> {
  const refused = await refusalAtDelivery(destination, resolve);
  if (refused !== undefined) {
    console.warn(`mcp-edge: webhook for ${destination.subscriptionId} not sent: ${refused}`);
    return { ok: false, error: "connection_refused", retry: false };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = await signWebhook(envelope.keys, { id: envelope.webhookId, timestamp, body: envelope.body });
  let response: Response;
  try {
    response = await fetch(destination.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "webhook-id": envelope.webhookId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature,
        [HEADER_SUBSCRIPTION_ID]: destination.subscriptionId,
      },
      body: envelope.body,
    });
  } catch (error) {
    return { ok: false, error: categoryOfFailure(error), retry: true };
  }
  if (response.status >= 200 && response.status < 300) return { ok: true, response };
  await response.body?.cancel();
  const final = response.status === 410 || response.status === 413;
  return { ok: false, error: response.status >= 500 ? "http_5xx" : "http_4xx", retry: !final };
}

/**
 * Confirms the endpoint wants deliveries (SEP-3415 "Endpoint verification"): its origin's well-known receiver
 * document covering the URL's path, else a signed challenge it echoes in a 2xx body (compared in constant time).
 */
export async function verifyEndpoint(
  destination: Destination,
  keys: readonly Uint8Array<ArrayBuffer>[],
  resolve: Resolver,
): Promise<{ ok: true } | { ok: false; reason: WebhookErrorCategory }> {
  if (await coveredByWellKnown(destination, resolve)) return { ok: true };
  const challenge = randomToken();
  const body = JSON.stringify({ type: "verification", challenge });
  const outcome = await post(destination, { webhookId: controlMessageId("verification"), body, keys }, resolve);
  if (!outcome.ok)
    return { ok: false, reason: outcome.error === "http_4xx" || outcome.error === "http_5xx" ? "challenge_failed" : outcome.error };
  const echo = await readBounded(outcome.response);
  let echoed: unknown;
  try {
    echoed = JSON.parse(echo);
  } catch {
    return { ok: false, reason: "challenge_failed" };
  }
  const value = echoed !== null && typeof echoed === "object" ? (echoed as { challenge?: unknown }).challenge : undefined;
  return typeof value === "string" && equalInConstantTime(value, challenge) ? { ok: true } : { ok: false, reason: "challenge_failed" };
}

/** `msg_<type>_<random>`: a control envelope's `webhook-id`. */
export function controlMessageId(type: string): string {
  return `msg_${type}_${randomToken()}`;
}

async function coveredByWellKnown(destination: Destination, resolve: Resolver): Promise<boolean> {
  const url = new URL(destination.url);
  const document = `${url.origin}${WELL_KNOWN_RECEIVER}`;
  if ((await refusalAtDelivery({ ...destination, url: document }, resolve)) !== undefined) return false;
  try {
    const response = await fetch(document, { redirect: "manual", signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    if (response.status !== 200) {
      await response.body?.cancel();
      return false;
    }
    const parsed: unknown = JSON.parse(await readBounded(response));
    const receivers = parsed !== null && typeof parsed === "object" ? (parsed as { receivers?: unknown }).receivers : undefined;
    if (!Array.isArray(receivers)) return false;
    return receivers.some((prefix) => typeof prefix === "string" && prefix.startsWith("/") && url.pathname.startsWith(prefix));
  } catch {
    return false;
  }
}

/** Why the destination may not be contacted now (its address, or what its name resolves to now), else undefined. */
async function refusalAtDelivery(destination: Destination, resolve: Resolver): Promise<string | undefined> {
  const checked = checkCallbackUrl(destination.url, destination.loopback);
  if (!checked.ok) return checked.reason;
  if (checked.literal) return undefined;
  let addresses: string[] | undefined;
  try {
    addresses = await resolve(checked.url.hostname);
  } catch {
    return `${checked.url.hostname} could not be resolved`;
  }
  if (addresses === undefined || addresses.length === 0) return `${checked.url.hostname} does not resolve`;
  for (const address of addresses) {
    const refused = refusalOfAddress(address);
    if (refused !== undefined) return `${checked.url.hostname} resolves to ${refused}`;
  }
  return undefined;
}

/** A fetch that threw: the category the client may learn, nothing of the message itself. */
function categoryOfFailure(error: unknown): WebhookErrorCategory {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "TimeoutError" || name === "AbortError") return "timeout";
  if (/tls|ssl|certificate|handshake/i.test(message)) return "tls_error";
  return "connection_refused";
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= MAX_ECHO_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel();
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, MAX_ECHO_BYTES));
}

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** DNS over HTTPS (Cloudflare's resolver, JSON API): the A and AAAA records of `host`, or undefined when neither resolves. */
export const resolveOverHttps: Resolver = async (host) => {
  const answers = await Promise.all(
    ["A", "AAAA"].map(async (type) => {
      const response = await fetch(`https://cloudflare-dns.com/dns-query?name=${encodeURIComponent(host)}&type=${type}`, {
        headers: { Accept: "application/dns-json" },
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      if (!response.ok) return undefined;
      const parsed = (await response.json()) as { Answer?: { type: number; data: string }[] };
      // Record types 1 (A) and 28 (AAAA); CNAME links (5) are followed by the resolver and skipped here.
      return (parsed.Answer ?? []).filter((answer) => answer.type === 1 || answer.type === 28).map((answer) => answer.data);
    }),
  );
  const addresses = answers.flatMap((list) => list ?? []);
  return addresses.length > 0 ? addresses : undefined;
};
