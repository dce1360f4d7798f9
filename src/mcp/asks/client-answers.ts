/**
 * Checks a client's answer to what the server asked (sampling/createMessage, elicitation/create,
 * roots/list) against the result schema of that method, for both eras (2025-06-18 through
 * 2025-11-25, and 2026-07-28, whose results add content arrays and tool blocks). A handler
 * only ever sees an answer that passed; a bad one is a -32007 naming the field, never a
 * JavaScript message. Unknown extra fields pass through, as the schemas allow.
 */
import { CLIENT_ERROR, RpcError } from "../../jsonrpc/errors";
import type { ElicitResult, Root } from "../definition/types";
import { isObject } from "../../jsonrpc/parse";

type Json = Record<string, unknown>;

/** One block of a sampled message (2026-07-28 SamplingMessageContentBlock; 2025 uses the first three). */
type SamplingContent =
  | { type: "text"; text: string; [key: string]: unknown }
  | { type: "image"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "audio"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "tool_use"; id: string; name: string; input: Json; [key: string]: unknown }
  | { type: "tool_result"; toolUseId: string; content: unknown[]; [key: string]: unknown };

/** A sampling answer in either era: one block, or (2025-11-25 with tools, 2026-07-28) a list of blocks. */
export interface SampledMessage {
  role: "user" | "assistant";
  model: string;
  content: SamplingContent | SamplingContent[];
  stopReason?: string;
  [key: string]: unknown;
}

function refuse(method: string, problem: string): never {
  throw new RpcError(CLIENT_ERROR, `${method}: the client's answer is not a valid result: ${problem}`);
}

const SAMPLING = "sampling/createMessage";

/** The string fields each block type needs (`input`/`content` are checked on their own). */
const BLOCK_FIELDS = new Map<string, readonly string[]>([
  ["text", ["text"]],
  ["image", ["data", "mimeType"]],
  ["audio", ["data", "mimeType"]],
  ["tool_use", ["id", "name"]],
  ["tool_result", ["toolUseId"]],
]);

function checkBlock(block: unknown, where: string): SamplingContent {
  if (!isObject(block) || typeof block.type !== "string") refuse(SAMPLING, `${where} must be an object with a string "type"`);
  const fields = BLOCK_FIELDS.get(block.type);
  if (!fields) refuse(SAMPLING, `${where} has unknown type "${block.type.slice(0, 40)}"`);
  for (const field of fields) {
    if (typeof block[field] !== "string") refuse(SAMPLING, `${where} (${block.type}) needs a string "${field}"`);
  }
  if (block.type === "tool_use" && !isObject(block.input)) refuse(SAMPLING, `${where} (tool_use) needs an object "input"`);
  if (block.type === "tool_result" && !Array.isArray(block.content)) refuse(SAMPLING, `${where} (tool_result) needs an array "content"`);
  return block as SamplingContent;
}

/** A `sampling/createMessage` result: role, model and content (one block or a list) as the schema says. */
export function checkCreateMessageResult(value: unknown): SampledMessage {
  if (!isObject(value)) refuse(SAMPLING, "the result must be an object");
  if (value.role !== "user" && value.role !== "assistant") refuse(SAMPLING, '"role" must be "user" or "assistant"');
  if (typeof value.model !== "string") refuse(SAMPLING, '"model" must be a string');
  if (value.stopReason !== undefined && typeof value.stopReason !== "string") refuse(SAMPLING, '"stopReason" must be a string');
  const content = value.content;
  if (Array.isArray(content)) {
    for (const [i, block] of content.entries()) checkBlock(block, `"content[${i}]"`);
  } else checkBlock(content, '"content"');
  return value as SampledMessage;
}

const ELICIT = "elicitation/create";

function isElicitedValue(value: unknown): boolean {
  // 2025-06-18: string, number, boolean; 2025-11-25 and 2026-07-28 add string arrays (multi-select).
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** An `elicitation/create` result: an action, and on accept flat content of primitives or string lists. */
export function checkElicitResult(value: unknown): ElicitResult {
  if (!isObject(value)) refuse(ELICIT, "the result must be an object");
  const action = value.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel")
    refuse(ELICIT, '"action" must be "accept", "decline" or "cancel"');
  if (action !== "accept") return { action };
  // No content is checked as `{}` against the form (checkFormAnswer): a required field is then reported missing.
  const content = value.content ?? {};
  if (!isObject(content)) refuse(ELICIT, 'accepted "content" must be an object');
  // Object.entries lists own keys only, and Object.fromEntries defines each as an own field: a key
  // such as "__proto__" stays a plain field.
  const entries = Object.entries(content);
  for (const [key, field] of entries) {
    if (!isElicitedValue(field)) refuse(ELICIT, `content field "${key.slice(0, 80)}" must be a string, number, boolean or list of strings`);
  }
  return { action, content: Object.fromEntries(entries) as Record<string, string | number | boolean | string[]> };
}

const ROOTS = "roots/list";

/** A `roots/list` result: a list of roots, each with a string `uri` (and an optional string `name`). */
export function checkListRootsResult(value: unknown): Root[] {
  if (!isObject(value)) refuse(ROOTS, "the result must be an object");
  if (!Array.isArray(value.roots)) refuse(ROOTS, '"roots" must be a list');
  return value.roots.map((root: unknown, i: number) => {
    if (!isObject(root) || typeof root.uri !== "string") refuse(ROOTS, `"roots[${i}]" must be an object with a string "uri"`);
    if (root.name !== undefined && typeof root.name !== "string") refuse(ROOTS, `"roots[${i}].name" must be a string`);
    return root as unknown as Root;
  });
}
