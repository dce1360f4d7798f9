/** Reading tool results in end-to-end tests. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The text of a tool result's first content item, if it is text. */
export function firstText(result: unknown): string | undefined {
  const first = (result as CallToolResult | undefined)?.content?.[0];
  return first?.type === "text" ? first.text : undefined;
}
