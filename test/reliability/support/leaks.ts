/**
 * What a client must never see: stack frames, exception class names, runtime words such as
 * "undefined", source paths and storage-engine messages. A match that the request itself carried
 * (an echo of the client's own input, e.g. a method name in "Method not found") is not a leak.
 */

const LEAK_PATTERNS: RegExp[] = [
  /\n\s*at\s/, // a stack frame on its own line
  /\bat [\w$.<>[\]]+ \(/, // "at fn (" inside a one-line message
  /\b(?:Type|Range|Reference|Syntax|URI|Eval|Aggregate|Internal)Error\b/,
  /\bError:/,
  /\bundefined\b/,
  /\[object \w+\]/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /\/work\/|node_modules|file:\/\//,
  /SQLITE_|sqlite/i,
  /Maximum call stack/i,
];

/**
 * Leaks already reported, each proven by its own failing test; the fuzzers tolerate them (with
 * `tolerateKnown`) so they keep looking for new ones. Delete an entry once its bug is fixed.
 */
const KNOWN_LEAKS: { bug: string; snippet: RegExp }[] = [
  // Empty: BUG-5 (zod's "received undefined" for a missing tool argument) is fixed and its entry removed.
];

/** The leaking snippets of `text`: matches of the patterns that the request did not contain itself. */
export function leaksIn(text: string, requestParts: readonly string[] = [], tolerateKnown = false): string[] {
  const found: string[] = [];
  if (tolerateKnown) for (const known of KNOWN_LEAKS) text = text.replace(new RegExp(known.snippet.source, "g"), "[known]");
  for (const pattern of LEAK_PATTERNS) {
    const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
    for (const match of text.matchAll(global)) {
      const snippet = match[0];
      if (requestParts.some((part) => part.includes(snippet.trim()))) continue;
      const at = match.index ?? 0;
      found.push(text.slice(Math.max(0, at - 40), at + snippet.length + 40));
    }
  }
  return found;
}
