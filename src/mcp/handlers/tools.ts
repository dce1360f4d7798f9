/** tools/list and tools/call (2025-06-18 "Tools"). */
import { INVALID_PARAMS, METHOD_NOT_FOUND, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext, InteractiveContext } from "../definition/context";
import { createInteractiveContext } from "../asks/interactive-context";
import type { DispatchContext } from "./dispatch-context";
import type { ToolDefinition } from "../definition/definitions";
import { paginate } from "./pagination";
import { enabledOnly, isEnabled } from "../definition/server";
import { runTool } from "../tools/tool-call";
import { callOf } from "../operations/middleware";
import { clientDeclares, missingExtensionError, TASKS_EXTENSION } from "../definition/extensions";
import { isObject } from "../../jsonrpc/parse";
import { to2025Result } from "../tools/structured-output";

/**
 * A task-only tool is not offered on the 2025 era: the Tasks extension exists only on 2026-07-28,
 * so a 2025 client could never call it (it would see a tool that always fails).
 */
function offeredIn(era: HandlerContext<unknown>["era"], tool: { task: { support: string } | undefined }): boolean {
  return era === "2026" || tool.task?.support !== "required";
}

export async function listTools<Env>(params: Params, dispatch: DispatchContext<Env>, handlerContext: HandlerContext<Env>): Promise<Params> {
  const offered = [...dispatch.server.tools.values()].filter((t) => offeredIn(handlerContext.era, t));
  // SEP-2106: a non-object outputSchema is listed wrapped as { result } on the 2025 wire.
  const all = (await enabledOnly(offered, handlerContext)).map((t) => (handlerContext.era === "2026" ? t.listing : t.listing2025));
  const { page, nextCursor } = paginate("tools", all, params, dispatch.server.pageSize);
  return nextCursor ? { tools: page, nextCursor } : { tools: page };
}

export async function callTool<Env>(params: Params, dispatch: DispatchContext<Env>, handlerContext: HandlerContext<Env>): Promise<Params> {
  const name = params.name;
  if (typeof name !== "string") throw new RpcError(INVALID_PARAMS, 'tools/call needs a string "name"');
  const tool = dispatch.server.tools.get(name);
  // A disabled tool does not exist for this caller.
  if (!tool || !(await isEnabled(tool, handlerContext))) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
  const rawArgs = params.arguments ?? {};
  if (!isObject(rawArgs)) throw new RpcError(INVALID_PARAMS, `tools/call "${name}": "arguments" must be an object`);
  // Tasks extension (2026-07-28 only): a task-capable tool whose request declared the extension
  // becomes a task, stored by its object before the CreateTaskResult is returned.
  if (tool.task && handlerContext.era === "2026") {
    let gathered: Record<string, unknown> | undefined;
    const gather = tool.task.gather;
    // A task's input gathered first, in this Worker, by MRTR (ext-tasks with mrtr.mdx): the call
    // answers input_required until the asks are answered, and only then becomes a task.
    if (gather && dispatch.channel && clientDeclares(handlerContext.clientCapabilities, TASKS_EXTENSION)) {
      gathered = await gather(
        rawArgs,
        createInteractiveContext(handlerContext, dispatch.channel, dispatch.server) as InteractiveContext<never>,
      );
    }
    const task = await dispatch.tasks?.runIfChosen(
      tool as ToolDefinition<never>,
      rawArgs,
      handlerContext as HandlerContext<unknown>,
      gathered,
    );
    if (task) return task;
  }
  // Reaching the synchronous path means no task was created: a task-only tool cannot answer here.
  // On 2026-07-28 the client can declare the extension (-32021 says how); a 2025-era client cannot,
  // and 2025-11-25 "Tasks" answers a task-required tool called without a task with -32601.
  if (tool.task?.support === "required") {
    if (handlerContext.era === "2026") throw missingExtensionError(TASKS_EXTENSION, `tool "${name}" runs only as a task`);
    throw new RpcError(METHOD_NOT_FOUND, `Tool "${name}" runs only as a task, which this protocol version does not offer`);
  }

  if (tool.interactive && !dispatch.channel) {
    // A routing mistake, not a client error: interactive tools always get a channel.
    throw new Error(`interactive tool "${name}" reached a lane without a channel`);
  }
  const ctx = dispatch.channel ? createInteractiveContext(handlerContext, dispatch.channel, dispatch.server) : handlerContext;
  const hook = dispatch.server.errorHook;
  const listener = hook ? { hook, call: callOf("tools/call", params, handlerContext) } : undefined;
  const result = await runTool(tool, rawArgs, ctx as InteractiveContext<Env>, {
    protocolVersion: dispatch.protocolVersion,
    era: handlerContext.era,
    listener,
  });
  // SEP-2106: the 2025 wire needs object structuredContent, so a non-object value goes as { result }.
  return { ...(handlerContext.era === "2026" ? result : to2025Result(result, tool.outputWrapped)) };
}
