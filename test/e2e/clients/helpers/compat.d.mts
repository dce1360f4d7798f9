// Types for compat.mjs (no Node type definitions needed).

export interface CompatTest {
  name: string;
  state: "pass" | "fail" | "skip" | "todo" | "run" | "queued" | "not run";
}

export interface CompatRecord {
  /** File name in results/compat/ and sort key of the table: [a-z0-9-]. */
  id: string;
  /** Row order in the table (ascending). */
  order: number;
  /** e.g. "MCP Inspector CLI". */
  client: string;
  /** e.g. "@modelcontextprotocol/inspector 2.12.0". */
  version: string;
  /** e.g. "Streamable HTTP (/mcp)". */
  transport: string;
  /** The protocol revision the server answered initialize with, as observed by the test. */
  protocol: string | undefined;
  /** What the test exercised, in a few words each. */
  exercised: string[];
  /** The test file, relative to the repository. */
  file: string;
  /** Every test of the file that was meant to run, with its outcome. */
  tests: CompatTest[];
  /** True iff at least one test ran and every test that was meant to run passed. */
  passed: boolean;
}

export const REPO_ROOT: string;
export function packageVersion(name: string): string | undefined;
export function writeCompatRecord(record: CompatRecord): string;
export function resetCompatRecords(): void;
