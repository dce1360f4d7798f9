/**
 * `mcp-edge/types` exports its values as values: the logging levels and their check are usable
 * at run time (a type-only re-export would compile away to undefined).
 */
import { describe, expect, it } from "vitest";
import { isLoggingLevel, LATEST_VERSION, LOGGING_LEVELS } from "../../src/types";

describe("mcp-edge/types at run time", () => {
  it("exports LOGGING_LEVELS, least to most severe, and isLoggingLevel", () => {
    expect(LOGGING_LEVELS).toEqual(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);
    expect(isLoggingLevel("warning")).toBe(true);
    expect(isLoggingLevel("verbose")).toBe(false);
    expect(typeof LATEST_VERSION).toBe("string");
  });
});
