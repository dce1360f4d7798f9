/**
 * The wire fuzzer (test/helpers/wire-fuzz.ts) against the demo: both eras, every method, mutated
 * requests; the oracle is docs/errors.md. The scaffold's server gets the same run (wire-fuzz.scaffold.test.ts).
 */
import { describe, expect, it } from "vitest";
import { fuzzWire } from "../helpers/wire-fuzz";
import { fuzzParameters } from "./support/settings";

describe("the wire fuzzer against the demo", () => {
  it("answers every mutated request as docs/errors.md says: no 5xx, its id, documented codes, no internals", async () => {
    const parameters = fuzzParameters(1_000, 36);
    const run = await fuzzWire("demo", { seed: parameters.seed as number, numRuns: parameters.numRuns as number });
    expect(run.cases).toBe(parameters.numRuns);
  }, 120_000);
});
