/**
 * Structured tool output of any JSON type (SEP-2106, 2026-07-28 server/tools.mdx "Structured
 * Content"): the one check of a result against its tool's `outputSchema`, the text mirror a
 * non-object value must carry, and the 2025-era projection. The 2025 wire requires an object
 * `outputSchema` root and object `structuredContent`, so there a non-object schema is listed as
 * `{ type: "object", properties: { result: <schema> }, required: ["result"] }` and the value sent
 * as `{ result: <value> }` (the wrap the MCP SDK v2 applies toward 2025-era clients).
 * Every place that runs a tool (Worker, session object, task object) goes through `checkToolOutput`.
 */
import { toolError } from "../definition/content";
import { isObject } from "../../jsonrpc/parse";
import type { CompiledSchema } from "../definition/schema";
import type { CallToolResult } from "../definition/types";

/**
 * Checks a successful result against the tool's output schema (a mismatch is a tool error the
 * model sees) and gives a non-object `structuredContent` its serialized JSON as text when the
 * handler wrote no text block (SEP-2106 "Backward Compatibility": servers MUST).
 */
export async function checkToolOutput(name: string, result: CallToolResult, output: CompiledSchema | undefined): Promise<CallToolResult> {
  if (result.isError) return result;
  const value = result.structuredContent;
  if (output) {
    if (value === undefined) return { ...toolError(`Tool "${name}" declares an outputSchema but returned no structuredContent`) };
    const checked = await output.validate(value);
    if (!checked.ok)
      return { ...toolError(`Tool "${name}" returned structuredContent that does not match its outputSchema: ${checked.message}`) };
  }
  if (value === undefined || isObject(value) || result.content.some((block) => block.type === "text")) return result;
  return { ...result, content: [...result.content, { type: "text", text: JSON.stringify(value) }] };
}

/** A result as a 2025-era client must see it: a non-object value, or any value of a wrapped schema, as `{ result }`. */
export function to2025Result(result: CallToolResult, schemaWrapped: boolean): CallToolResult {
  const value = result.structuredContent;
  if (value === undefined || (isObject(value) && !schemaWrapped)) return result;
  return { ...result, structuredContent: { result: value } };
}
