/**
 * A user's upstream grants in their user object (durable-objects/user/upstream-grants.ts): sealed
 * at rest, opened only for the principal and secret they were sealed for, apart from the store
 * `ctx.user` reads, and handed out without a request upstream while fresh. The refresh itself
 * (once for 20 concurrent callers) is tested end to end: test/e2e/auth/github-oauth.test.ts.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UpstreamPlan, UserRpc } from "../../durable-objects/user/contract";
import { userObjectId } from "../../src/platform/addresses";
import { userStore } from "../../src/features/user/user-store";

const SECRET = "test-only-upstream-secret-0123456789abcdef";
const GRANT = {
  accessToken: "gho_access-token-text",
  refreshToken: "ghr_refresh-token-text",
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
};

function objectOf(subject: string): DurableObjectStub<UserRpc> {
  const namespace = (env as unknown as { MCP_USER: DurableObjectNamespace<UserRpc> }).MCP_USER;
  return namespace.get(userObjectId(namespace, subject));
}

/** A plan whose token endpoint nobody listens on: a call that reached it would fail as unavailable. */
function planFor(subject: string, secret = SECRET): UpstreamPlan {
  return { subject, secret, tokenUrl: "http://127.0.0.1:9/token", clientId: "id", clientSecret: "secret", refreshBeforeSeconds: 60 };
}

describe("a user's upstream grant in their object", () => {
  it("is stored sealed: neither token's text is in the object's storage", async () => {
    const subject = `sealed-${crypto.randomUUID()}`;
    const stub = objectOf(subject);
    await stub.saveUpstreamGrant("github", GRANT, { subject, secret: SECRET });
    const stored = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql
        .exec<{ data: ArrayBuffer }>("SELECT data FROM upstream_grants")
        .toArray()
        .map((row) => new TextDecoder().decode(row.data)),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain("access-token-text");
    expect(stored[0]).not.toContain("refresh-token-text");
  });

  it("hands out a fresh token without asking the provider", async () => {
    const subject = `fresh-${crypto.randomUUID()}`;
    await objectOf(subject).saveUpstreamGrant("github", GRANT, { subject, secret: SECRET });
    expect(await objectOf(subject).upstreamAccess("github", planFor(subject))).toEqual({
      ok: true,
      accessToken: GRANT.accessToken,
      expiresAt: GRANT.expiresAt,
    });
  });

  it("does not open under another secret or for another principal", async () => {
    const subject = `other-${crypto.randomUUID()}`;
    await objectOf(subject).saveUpstreamGrant("github", GRANT, { subject, secret: SECRET });
    const otherSecret = await objectOf(subject).upstreamAccess("github", planFor(subject, `${SECRET}-rotated`));
    expect(otherSecret).toEqual({ ok: false, reason: "unreadable" });
    // The same object asked as if it were someone else's: the key is derived from the subject too.
    const otherSubject = await objectOf(subject).upstreamAccess("github", planFor(`not-${subject}`));
    expect(otherSubject).toEqual({ ok: false, reason: "unreadable" });
  });

  it("answers none for a provider the user never signed in at", async () => {
    const subject = `none-${crypto.randomUUID()}`;
    expect(await objectOf(subject).upstreamAccess("github", planFor(subject))).toEqual({ ok: false, reason: "none" });
  });

  it("is out of ctx.user's reach: listing every key shows no grant", async () => {
    const subject = `apart-${crypto.randomUUID()}`;
    await objectOf(subject).saveUpstreamGrant("github", GRANT, { subject, secret: SECRET });
    const store = userStore(env, { subject });
    await store.put("upstream:github", "the user's own value");
    expect([...(await store.list())]).toEqual([["upstream:github", "the user's own value"]]);
    expect((await objectOf(subject).upstreamAccess("github", planFor(subject))).ok).toBe(true);
  });
});
