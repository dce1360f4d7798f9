/**
 * The one tool-call pipeline: arguments checked as the protocol version says, the handler, the
 * failure policy, the result's shape and its output schema. The Worker, the session object and
 * the task object all run a tool through `runTool`; they differ only in how a JSON-RPC error is
 * presented (a task fails with it, a synchronous call shows its text as an `isError` result).
 * Exposure policy: only a `ToolError`'s or an `RpcError`'s text reaches the client; any other
 * exception is logged with a reference and the client sees the generic result naming it. A
 * handler's `reauthenticate()` / `needScopes()` is never a tool result: it rejects the call, and
 * the lane answers the client's challenge (src/auth/step-up.ts).
 */
import { CLIENT_ERROR, INTERNAL_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError } from "../../jsonrpc/errors";
import { isObject } from "../../jsonrpc/parse";
import { AuthorizationChallenge } from "../definition/authorization";
import { ToolError, toolError } from "../definition/content";
import type { InteractiveContext } from "../definition/context";
import type { ToolDefinition } from "../definition/definitions";
import type { CallToolResult } from "../definition/types";
import { checkToolOutput } from "./structured-output";
import { reportUnexpected, type ErrorListener } from "../operations/unexpected";
import { reportsInputErrorsAsToolErrors, type AnyVersion } from "../definition/versions";

/** Where the call runs, for the two choices that differ by place and era. */
export interface ToolCallPlace<Env = unknown> {
  protocolVersion: AnyVersion;
  era: "2025" | "2026";
  /**
   * A task: an `RpcError` from the handler fails the task with that error (ext-tasks). Elsewhere
   * it is a failing tool, shown to the model as an `isError` result with its text.
   */
  task?: boolean;
  /** Who hears of an unexpected failure besides the log (the server's onError hook and the call). */
  listener?: ErrorListener<Env>;
}

/**
 * Runs `tool` with `rawArgs`. Resolves the `CallToolResult` the client gets; rejects with an
 * `RpcError` only for a protocol error (bad arguments before 2025-11-25, a capability the request
 * did not declare, a malformed client answer on 2026, a result that is not a CallToolResult, a
 * handler's authorization challenge, and in a task any `RpcError` the handler threw).
 */
export async function runTool<Env>(
  tool: ToolDefinition<Env>,
  rawArgs: Record<string, unknown>,
  ctx: InteractiveContext<Env>,
  place: ToolCallPlace<Env>,
): Promise<CallToolResult> {
  const checked = await tool.input.validate(rawArgs);
  if (!checked.ok) {
    const message = `Invalid arguments for tool "${tool.name}": ${checked.message}`;
    if (reportsInputErrorsAsToolErrors(place.protocolVersion)) return { ...toolError(message) };
    throw new RpcError(INVALID_PARAMS, message);
  }
  let result: CallToolResult;
  try {
    result = await tool.handler(checked.value, ctx);
  } catch (error) {
    // A task whose run was aborted (tasks/cancel, an eviction) reports that, not a failing tool.
    if (place.task && ctx.signal.aborted) throw error;
    return failedCall(tool.name, error, place);
  }
  return checkedResult(tool, result, place);
}

/** The failure policy: what a handler's exception becomes. */
function failedCall<Env>(name: string, error: unknown, place: ToolCallPlace<Env>): CallToolResult {
  // reauthenticate() / needScopes(): the client re-authorizes (401/403), the model never sees it.
  if (error instanceof AuthorizationChallenge) throw error;
  if (error instanceof RpcError) {
    // 2026-07-28: a capability this request did not declare (400 -32021), or a malformed answer in its
    // inputResponses (mrtr.mdx "Error handling"), is the client's protocol error, not a tool failure.
    if (place.task || error.code === MISSING_CLIENT_CAPABILITY || (place.era === "2026" && error.code === CLIENT_ERROR)) throw error;
    return { ...toolError(error.message || `Tool "${name}" failed`) };
  }
  if (error instanceof ToolError) return { ...toolError(error.message || `Tool "${name}" failed`) };
  const reference = reportUnexpected(`tool "${name}"`, error, place.listener);
  return { ...toolError(`Tool "${name}" failed unexpectedly (reference ${reference}); the server's log has the details.`) };
}

/** The result's shape, then its structuredContent against the output schema (a mismatch is the tool's failure). */
function checkedResult<Env>(tool: ToolDefinition<Env>, result: CallToolResult, place: ToolCallPlace<Env>): Promise<CallToolResult> {
  if (!isObject(result) || !Array.isArray(result.content)) {
    const malformed = new Error("the handler returned something other than a CallToolResult");
    const reference = reportUnexpected(`tool "${tool.name}"`, malformed, place.listener);
    throw new RpcError(INTERNAL_ERROR, "Internal error", { reference });
  }
  return checkToolOutput(tool.name, { ...result }, tool.output);
}
