// Types for processes.mjs (no Node type definitions needed).

export interface ProcessHandle {
  /** Process id, also the id of the process group it leads. */
  readonly pid: number;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Complete stdout lines so far (without "\n"). */
  readonly lines: string[];
  stdout(): string;
  stderr(): string;
  write(text: string): void;
  closeStdin(): void;
  /** The first stdout line from index `from` (default 0) on that satisfies `match`; rejects on timeout or exit. */
  waitForLine(match: (line: string) => boolean, options?: { timeoutMs?: number; from?: number }): Promise<string>;
  /** SIGTERM to the process group by id, SIGKILL after 5 s; resolves once the group is gone. Idempotent. */
  stop(): Promise<void>;
}

export interface ProcessResult {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Starts a process with piped stdio, leading its own process group; `env` is merged over process.env. */
export function startProcess(
  command: string,
  args: string[],
  options?: { env?: Record<string, string | undefined>; cwd?: string },
): ProcessHandle;
/** Runs a command to completion (stdin closed), killing its process group after `timeoutMs` (default 60 s). */
export function runProcess(
  command: string,
  args: string[],
  options?: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number },
): Promise<ProcessResult>;
