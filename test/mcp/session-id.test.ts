/**
 * Mcp-Session-Id values (2025-06-18 Streamable HTTP > Session Management: visible ASCII,
 * cryptographically secure): a value is refused by shape before the namespace is asked, and
 * one the namespace did not mint is refused by idFromString.
 */
import { describe, expect, it } from "vitest";
import { isWellFormedSessionId, sessionObjectId } from "../../src/platform/addresses";
import { sessionNamespace } from "../helpers/rpc-expect";

describe("isWellFormedSessionId", () => {
  it("accepts a minted id and refuses other shapes", () => {
    expect(isWellFormedSessionId(sessionNamespace().newUniqueId().toString())).toBe(true);
    for (const value of ["", "abc", "AB".repeat(32), "ab".repeat(32) + "a", "g".repeat(64), ` ${"a".repeat(63)}`]) {
      expect(isWellFormedSessionId(value)).toBe(false);
    }
  });
});

describe("sessionObjectId", () => {
  it("returns the object id for an id the namespace minted", () => {
    const namespace = sessionNamespace();
    const id = namespace.newUniqueId();
    expect(sessionObjectId(namespace, id.toString())?.equals(id)).toBe(true);
  });

  it("returns undefined for a well-formed id the namespace did not mint", () => {
    expect(sessionObjectId(sessionNamespace(), "ab".repeat(32))).toBeUndefined();
  });

  it("does not ask the namespace about a malformed id", () => {
    const asked: string[] = [];
    const namespace = {
      idFromString: (value: string): DurableObjectId => {
        asked.push(value);
        throw new Error("unexpected");
      },
    };
    expect(sessionObjectId(namespace, "../../etc")).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
