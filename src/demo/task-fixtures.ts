/**
 * The Tasks extension fixtures the conformance suite (0.2.0-alpha.12, `tasks-*` scenarios) looks
 * for, with the names and arguments its scenarios use: a sync `greet`, and task tools that
 * finish, fail as a tool, fail with a protocol error, wait to be cancelled, and ask for input.
 */
import { RpcError, text, toolError, type EdgeEnv, type ServerDefinition as McpServer } from "../index";
import { errorCodes } from "../types";

const { INTERNAL_ERROR } = errorCodes;

const confirmSchema = { type: "object", properties: { confirm: { type: "boolean", description: "Go ahead?" } }, required: ["confirm"] };

function addTaskTools(server: McpServer<EdgeEnv>): void {
  server.tool(
    "greet",
    {
      description: "Greets by name (conformance tasks-*: the sync-only tool)",
      input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    ({ name }) => ({ content: [text(`Hello, ${String(name)}!`)] }),
  );

  server.tool(
    "slow_compute",
    {
      description:
        "Works for `seconds` then returns; runs as a task for clients with the Tasks extension, and ends cancelled on tasks/cancel",
      input: {
        type: "object",
        properties: { seconds: { type: "number", minimum: 0, maximum: 300 }, label: { type: "string" } },
        required: ["seconds"],
      },
      task: "optional",
    },
    async ({ seconds, label }, ctx) => {
      await scheduler.wait(Number(seconds) * 1000, { signal: ctx.signal });
      return { content: [text(`Computed ${typeof label === "string" ? label : "result"} after ${String(seconds)} s`)] };
    },
  );

  server.tool(
    "failing_job",
    {
      description: "Runs only as a task and always ends with a tool execution error after about a second",
      task: "required",
    },
    async (_args, ctx) => {
      await scheduler.wait(1000, { signal: ctx.signal });
      return toolError("The job failed: the input data set is empty");
    },
  );

  server.tool(
    "protocol_error_job",
    {
      description: "A task whose work ends in a protocol (JSON-RPC) error, so the task fails",
      task: "optional",
    },
    () => {
      throw new RpcError(INTERNAL_ERROR, "The job could not reach its backend");
    },
  );
}

function addAskingTaskTools(server: McpServer<EdgeEnv>): void {
  server.interactiveTool(
    "confirm_delete",
    {
      description: "Asks for confirmation (elicitation) before deleting a file; as a task the question is the task's inputRequest",
      input: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
      task: "optional",
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit(`Delete ${String(filename)}?`, confirmSchema);
      const yes = answer.action === "accept" && answer.content.confirm === true;
      return { content: [text(yes ? `Deleted ${String(filename)}` : `Kept ${String(filename)}`)] };
    },
  );

  server.interactiveTool(
    "multi_input",
    {
      description: "Asks two questions together, so two inputRequests are pending side by side",
      task: "optional",
    },
    async (_args, ctx) => {
      const [first, second] = await Promise.all([
        ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
        // Optional: conformance tasks-mrtr-input answers both questions with the same content ({ name, confirm }),
        // and accepted content is checked against the form the handler asked with.
        ctx.elicit("Your favourite colour?", { type: "object", properties: { colour: { type: "string" } } }),
      ]);
      const name = first.action === "accept" ? String(first.content.name ?? "someone") : "someone";
      const colour = second.action === "accept" ? String(second.content.colour ?? "no colour") : "no colour";
      return { content: [text(`${name} likes ${colour}`)] };
    },
  );

  // conformance tasks-mrtr-composition: input gathered by MRTR in the Worker, then a task on the final round.
  server.interactiveTool(
    "test_tool_with_task",
    {
      description: "Asks for your name (key user_name) before it becomes a task, then greets you from the task",
      task: {
        support: "required",
        gather: async (_args, ctx) => {
          const answer = await ctx.elicit(
            "What is your name?",
            { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
            { key: "user_name" },
          );
          return { name: answer.action === "accept" ? String(answer.content.name ?? "someone") : "someone" };
        },
      },
    },
    async (_args, ctx) => ({ content: [text(`Hello, ${String(ctx.gathered?.name ?? "someone")}! (from the task)`)] }),
  );
}

export function addTaskFixtures(server: McpServer<EdgeEnv>): void {
  addTaskTools(server);
  addAskingTaskTools(server);
}
