/**
 * The wire fuzzer (test/helpers/wire-fuzz.ts) against the server `npm create mcp-edge` writes,
 * with its own bindings: a missing binding its code reaches would show as a 5xx here (a listen
 * once answered 500 with id null).
 */
import { describe, expect, it } from "vitest";
import { fuzzWire } from "../helpers/wire-fuzz";
import { fuzzParameters } from "./support/settings";

describe("the wire fuzzer against the scaffold's server", () => {
  it("answers every mutated request as docs/errors.md says: no 5xx, its id, documented codes, no internals", async () => {
    const parameters = fuzzParameters(1_000, 37);
    const run = await fuzzWire("scaffold", { seed: parameters.seed as number, numRuns: parameters.numRuns as number });
    expect(run.cases).toBe(parameters.numRuns);
  }, 120_000);
});
