// Types for create.mjs (the e2e TypeScript has no Node types).

export interface CreateRun {
  code: number;
  stdout: string;
  stderr: string;
  /** What the CLI wrote into the folder it ran in. */
  written: string[];
}

/** Runs `node create-mcp-edge/index.js <args>` in a fresh folder, under a faked `process.versions.node` when given. */
export function runCreate(args: string[], how?: { nodeVersion?: string }): Promise<CreateRun>;
