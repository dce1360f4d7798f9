/** tools/list and tools/call (2025-06-18 "Tools"). */
import { CLIENT_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { createInteractiveContext, type HandlerContext, type InteractiveContext } from "../context";
import type { DispatchContext } from "../dispatch-context";
import { paginate } from "../pagination";
import { enabledOnly, isEnabled } from "../server";
import { reportsInputErrorsAsToolErrors } from "../versions";
import { ToolError, toolError } from "../content";
import { reportUnexpected } from "../unexpected";
import { clientDeclares, missingExtensionError, TASKS_EXTENSION } from "../extensions";
import { runAsTaskIfChosen } from "../../tasks/lane";
import type { EdgeEnv } from "../../env";
import type { CallToolResult } from "../types";
import { isObject } from "../../jsonrpc/parse";

export async function listTools<Env>(params: Params, dc: DispatchContext<Env>, hc: HandlerContext<Env>): Promise<Params> {
  const all = (await enabledOnly(dc.server.tools.values(), hc)).map((t) => t.listing);
  const { page, nextCursor } = paginate("tools", all, params, dc.server.pageSize);
  return nextCursor ? { tools: page, nextCursor } : { tools: page };
}

export async function callTool<Env>(params: Params, dc: DispatchContext<Env>, hc: HandlerContext<Env>): Promise<Params> {
  const name = params.name;
  if (typeof name !== "string") throw new RpcError(INVALID_PARAMS, 'tools/call needs a string "name"');
  const tool = dc.server.tools.get(name);
  // A disabled tool does not exist for this caller.
  if (!tool || !(await isEnabled(tool, hc))) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
  const rawArgs = params.arguments ?? {};
  if (!isObject(rawArgs)) throw new RpcError(INVALID_PARAMS, `tools/call "${name}": "arguments" must be an object`);
  // Tasks extension (2026-07-28 only): a task-capable tool whose request declared the extension
  // becomes a task, stored by its object before the CreateTaskResult is returned.
  if (tool.task && hc.era === "2026") {
    let gathered: Record<string, unknown> | undefined;
    const gather = tool.task.gather;
    // A task's input gathered first, in this Worker, by MRTR (ext-tasks with mrtr.mdx): the call
    // answers input_required until the asks are answered, and only then becomes a task.
    if (gather && dc.channel && clientDeclares(hc.clientCapabilities, TASKS_EXTENSION)) {
      gathered = await gather(rawArgs, createInteractiveContext(hc, dc.channel) as InteractiveContext<never>);
    }
    const task = await runAsTaskIfChosen(dc.server as never, dc.env as EdgeEnv, tool, rawArgs, {
      principal: hc.principal,
      clientKey: dc.clientKey,
      clientCapabilities: hc.clientCapabilities,
      requestMeta: hc.meta,
      gathered,
    });
    if (task) return task;
  }
  // Reaching the synchronous path means no task was created: a task-only tool cannot answer here.
  if (tool.task?.support === "required") throw missingExtensionError(TASKS_EXTENSION, `tool "${name}" runs only as a task`);

  const checked = await tool.input.validate(rawArgs);
  if (!checked.ok) {
    const message = `Invalid arguments for tool "${name}": ${checked.message}`;
    if (reportsInputErrorsAsToolErrors(dc.protocolVersion)) return { ...toolError(message) };
    throw new RpcError(INVALID_PARAMS, message);
  }

  if (tool.interactive && !dc.channel) {
    // A routing mistake, not a client error: interactive tools always get a channel.
    throw new Error(`interactive tool "${name}" reached a lane without a channel`);
  }
  const ctx = dc.channel ? createInteractiveContext(hc, dc.channel) : hc;

  let result: CallToolResult;
  try {
    result = await tool.handler(checked.value, ctx as Parameters<typeof tool.handler>[1]);
  } catch (error) {
    // 2026-07-28: a capability this request did not declare (400 -32021), or a malformed answer in its
    // inputResponses (mrtr.mdx "Error handling"), is the client's protocol error, not a tool failure.
    if (error instanceof RpcError && (error.code === MISSING_CLIENT_CAPABILITY || (hc.era === "2026" && error.code === CLIENT_ERROR)))
      throw error;
    // A failing tool is reported to the model as a result, not as a protocol error. Only a
    // ToolError's or an RpcError's text (ours: a refused sample, a bad client answer, a
    // cancellation) is meant for it; any other exception (a bug, a platform limit) stays in the log.
    if (error instanceof ToolError || error instanceof RpcError) return { ...toolError(error.message || `Tool "${name}" failed`) };
    const reference = reportUnexpected(`tool "${name}"`, error);
    return { ...toolError(`Tool "${name}" failed unexpectedly (reference ${reference}); the server's log has the details.`) };
  }
  if (!isObject(result) || !Array.isArray(result.content)) {
    throw new Error(`tool "${name}" returned something other than a CallToolResult`);
  }
  if (tool.output && !result.isError) {
    if (!isObject(result.structuredContent)) {
      return { ...toolError(`Tool "${name}" declares an outputSchema but returned no structuredContent`) };
    }
    const out = await tool.output.validate(result.structuredContent);
    if (!out.ok) return { ...toolError(`Tool "${name}" returned structuredContent that does not match its outputSchema: ${out.message}`) };
  }
  return { ...result };
}
