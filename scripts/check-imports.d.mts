// Types for scripts/check-imports.mjs (its test feeds it small trees).
export interface Tree {
  /** Repository path (e.g. "src/index.ts") → source text. */
  files: Map<string, string>;
  /** The public entry modules ("src/index.ts"): package.json's "exports". */
  entries: string[];
}
export interface Grant {
  /** "feature": an exception to the features' rule; otherwise an import that closes a loop. */
  rule?: "feature";
  from: string;
  to: string;
  why: string;
}
export const GRANTED: Grant[];
export function readTree(root: string): Tree;
export function checkImports(tree: Tree, granted?: Grant[]): { problems: string[]; summary: string };
