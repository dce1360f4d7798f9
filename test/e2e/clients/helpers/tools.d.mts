// Types for tools.mjs (no Node type definitions needed).

/** Absolute path of a package's bin script (`bin` defaults to the package's own name). */
export function packageBin(name: string, bin?: string): string;
/** A new empty folder under the system temp folder; remove() deletes it. */
export function tempDir(prefix: string): { path: string; remove(): void };
/** The Node binary running this process (the project's Node, 22.12 or newer). */
export function currentNode(): string;
/** PATH with this process's Node first, so that `npm` and the tools it starts run on it too. */
export function pathWithCurrentNode(): string;
