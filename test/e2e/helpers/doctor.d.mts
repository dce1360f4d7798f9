// Types for doctor.mjs (the e2e TypeScript has no Node types).

export interface Finding {
  check: string;
  status: "ok" | "warn" | "fail" | "skip";
  message: string;
  fix?: string;
}

export interface DoctorRun {
  /** The process's exit code: 0 without a failed check, 1 with one, 2 for a usage error. */
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed `--json` report, when `--json` was passed. */
  report?: { url: string; ok: boolean; findings: Finding[] };
}

/**
 * Runs `node [nodeArgs] bin/mcp-edge.mjs doctor <args>`; rejects when the process has not exited after
 * `killAfterMs` (default 60 s) and was killed.
 */
export function runDoctor(args: string[], how?: { nodeArgs?: string[]; killAfterMs?: number }): Promise<DoctorRun>;

/** A proxy on 127.0.0.1 forwarding to `target` with every request's Host set to `host`. */
export function startHostProxy(target: string, host: string): Promise<{ url: string; close(): Promise<void> }>;
