// Types for tools.mjs (no Node type definitions needed).

/** Absolute path of a package's bin script (`bin` defaults to the package's own name). */
export function packageBin(name: string, bin?: string): string;
/** Path of the pinned Node 22 binary in .tools/, bootstrapping it if missing (synchronous, may take a minute). */
export function node22(): string;
/** A new empty folder under the system temp folder; remove() deletes it. */
export function tempDir(prefix: string): { path: string; remove(): void };
/** The Node binary running this process (the project's Node, 20 or newer). */
export function currentNode(): string;
