/**
 * A tool's output schema as each era lists it (SEP-2106): any JSON type on 2026-07-28; on the
 * 2025 wire, whose `outputSchema` root must be an object, a non-object schema is listed as
 * `{ type: "object", properties: { result: <schema> }, required: ["result"] }` (made once, when
 * the tool is defined). The check of a result against it: tools/structured-output.ts.
 */
import { isObject } from "../../jsonrpc/parse";
import type { JsonSchema } from "./schema";

/** Whether an output schema's root describes an object (`type: "object"`); anything else needs the 2025 wrap. */
export function hasObjectRoot(schema: JsonSchema): boolean {
  return schema.type === "object";
}

// Keywords whose values are instance data, not subschemas: a `$ref` inside is a literal.
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
// Keywords whose values map names to subschemas: the names may look like keywords.
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

function establishesBase(id: unknown): boolean {
  return id !== undefined && !(typeof id === "string" && id.startsWith("#"));
}

/** Moves same-document `$ref`s (`#`, `#/…`) under `#/properties/result`, where the wrap puts the schema. */
function rebaseRefs(node: unknown, nameMap: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => rebaseRefs(item, false));
  if (!isObject(node)) return node;
  // A subschema with its own base URI resolves its pointers against itself: leave it whole.
  if (!nameMap && establishesBase(node.$id)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (nameMap) out[key] = rebaseRefs(value, false);
    else if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string")
      out[key] = value === "#" ? "#/properties/result" : value.startsWith("#/") ? `#/properties/result${value.slice(1)}` : value;
    else if (DATA_KEYWORDS.has(key)) out[key] = value;
    else out[key] = rebaseRefs(value, NAME_MAPS.has(key));
  }
  return out;
}

/** The 2025-era form of a non-object output schema; the author's `$schema`, if any, stays at the root. */
export function wrapOutputSchema(natural: JsonSchema): JsonSchema {
  const { $schema, ...rest } = natural;
  const inner = establishesBase(natural.$id) ? rest : (rebaseRefs(rest, false) as JsonSchema);
  const wrapped: JsonSchema = { type: "object", properties: { result: inner }, required: ["result"] };
  return $schema === undefined ? wrapped : { $schema, ...wrapped };
}
