/**
 * Seeds and sizes of the reliability suite. Every property runs with a fixed seed by default, so
 * a CI failure reproduces locally; fast-check prints the seed and the path of a failing case.
 * Override from the shell (vite only forwards variables with the VITE_ prefix into workerd):
 *   VITE_MCP_EDGE_FUZZ_SEED=123 VITE_MCP_EDGE_FUZZ_SCALE=4 npx vitest run --project workers test/reliability
 */
import type fc from "fast-check";

const vars: Record<string, string | undefined> = (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};

function numberVar(name: string, fallback: number): number {
  const raw = vars[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${raw}`);
  return value;
}

/** The seed of every property in the suite (default: a fixed date, so runs are reproducible). */
const FUZZ_SEED = numberVar("VITE_MCP_EDGE_FUZZ_SEED", 20_260_701);
/** Multiplies every property's case count (0.1 for a quick local run, 10 for a soak). */
const FUZZ_SCALE = numberVar("VITE_MCP_EDGE_FUZZ_SCALE", 1);

function scaled(runs: number): number {
  return Math.max(1, Math.round(runs * FUZZ_SCALE));
}

/** fast-check parameters: the suite's seed, `runs` cases (scaled), and the seed printed on failure. */
export function fuzzParameters<T>(runs: number, seedOffset = 0): fc.Parameters<T> {
  return { seed: FUZZ_SEED + seedOffset, numRuns: scaled(runs), verbose: 0 };
}

/** Figures for docs/reliability.md: each file prints one line `[reliability] <what>: <figures>` when it is done. */
export function reportFigures(what: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  console.log(`[reliability] ${what}: ${text} (seed ${FUZZ_SEED}, scale ${FUZZ_SCALE})`);
}
