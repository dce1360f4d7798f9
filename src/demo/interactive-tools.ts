/**
 * The demo's interactive tools: they run in the session's Durable Object (2025 era) or answer
 * by MRTR (2026-07-28), and log, report progress, sample, elicit or list roots. Conformance
 * fixtures keep the exact names and texts the suite checks.
 */
import { z } from "zod";
import { text, toolError, type EdgeEnv, type ServerDefinition } from "../index";
import type { CreateMessageWithToolsParams, ElicitResult, ToolUseContent } from "../types";
import { READ_ONLY } from "./assets";

/** Plain sleep for the fixtures' small pauses. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A sleep that rejects with the signal's reason as soon as the request is cancelled. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** `User response: ...` / `Elicitation completed: ...` suffix; content only exists on accept. */
function describeElicitation(result: ElicitResult): string {
  const content = "content" in result ? JSON.stringify(result.content) : "null";
  return `action=${result.action}, content=${content}`;
}

/** The one tool ask_with_tools offers the client's model, and its fixed answers. */
const CAPITALS: Record<string, string> = { france: "Paris", japan: "Tokyo", kenya: "Nairobi", peru: "Lima" };
const CAPITAL_TOOL = {
  name: "capital_of",
  description: "The capital city of a country",
  inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
};
/** Sampling rounds before the model must answer without tools. */
const TOOL_ROUNDS = 3;

function addLoggingProgressAndSampling(server: ServerDefinition<EdgeEnv>): void {
  server
    .interactiveTool(
      "test_tool_with_logging",
      {
        description: "Sends three info log notifications while it runs (conformance: tools-call-with-logging).",
        annotations: READ_ONLY,
      },
      async (_args, ctx) => {
        await ctx.log("info", "Tool execution started");
        await sleep(50);
        await ctx.log("info", "Tool processing data");
        await sleep(50);
        await ctx.log("info", "Tool execution completed");
        return { content: [text("Tool with logging executed successfully")] };
      },
    )

    .interactiveTool(
      "test_tool_with_progress",
      {
        description: "Reports progress 0, 50 and 100 of 100 while it runs (conformance: tools-call-with-progress).",
        annotations: READ_ONLY,
      },
      async (_args, ctx) => {
        await ctx.progress(0, 100);
        await sleep(50);
        await ctx.progress(50, 100);
        await sleep(50);
        await ctx.progress(100, 100);
        return { content: [text("Tool with progress executed successfully")] };
      },
    )

    .interactiveTool(
      "test_sampling",
      {
        description:
          "Asks the client's model to answer a prompt (sampling/createMessage) and returns its reply (conformance: tools-call-sampling).",
        input: z.object({ prompt: z.string().describe("The prompt to send to the client's model") }),
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async ({ prompt }, ctx) => {
        const result = await ctx.sample({
          messages: [{ role: "user", content: { type: "text", text: prompt } }],
          maxTokens: 100,
        });
        const reply = result.content.type === "text" ? result.content.text : `[${result.content.type} content]`;
        return { content: [text(`LLM response: ${reply}`)] };
      },
    );
}

function addSamplingWithTools(server: ServerDefinition<EdgeEnv>): void {
  server.interactiveTool(
    "ask_with_tools",
    {
      description:
        "Asks the client's model a question it may answer by calling a capital_of tool this server runs (sampling with tools, SEP-1577); needs the client's sampling.tools capability.",
      input: z.object({ question: z.string().max(2000).describe("The question for the model") }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ question }, ctx) => {
      const messages: CreateMessageWithToolsParams["messages"] = [{ role: "user", content: { type: "text", text: question } }];
      for (let round = 0; round < TOOL_ROUNDS; round++) {
        // The last round forbids tools, so the loop ends with an answer (client/sampling.mdx "Tool Use").
        const toolChoice = { mode: round === TOOL_ROUNDS - 1 ? ("none" as const) : ("auto" as const) };
        const answer = await ctx.sample({ messages, maxTokens: 200, tools: [CAPITAL_TOOL], toolChoice }, { key: `round_${round}` });
        const uses = answer.content.filter((block): block is ToolUseContent => block.type === "tool_use");
        if (uses.length === 0) {
          const said = answer.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
          return { content: [text(said || "[the model answered without text]")] };
        }
        messages.push(
          { role: "assistant", content: answer.content },
          {
            role: "user",
            content: uses.map((use) => {
              const capital = CAPITALS[String(use.input.country ?? "").toLowerCase()];
              return {
                type: "tool_result" as const,
                toolUseId: use.id,
                content: [text(capital ?? "unknown country")],
                isError: !capital,
              };
            }),
          },
        );
      }
      return toolError("The model kept asking for tools");
    },
  );
}

function addElicitation(server: ServerDefinition<EdgeEnv>): void {
  server
    .interactiveTool(
      "test_elicitation",
      {
        description:
          "Asks the user for a username and an email (elicitation/create) and reports the answer (conformance: tools-call-elicitation).",
        input: z.object({ message: z.string().describe("The message to show the user") }),
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async ({ message }, ctx) => {
        const result = await ctx.elicit(message, {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        });
        return { content: [text(`User response: ${describeElicitation(result)}`)] };
      },
    )

    .interactiveTool(
      "connect_account",
      {
        description:
          "Sends the user to a page outside the client (URL mode elicitation) to connect an account; needs the client's elicitation.url capability.",
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async (_args, ctx) => {
        const answer = await ctx.elicitUrl("Connect your example.com account", "https://example.com/connect?from=mcp-edge-demo", {
          key: "connect",
        });
        return { content: [text(`User ${answer.action === "accept" ? "agreed to open" : `answered ${answer.action} to`} the page`)] };
      },
    );
}

function addElicitationDefaults(server: ServerDefinition<EdgeEnv>): void {
  server.interactiveTool(
    "test_elicitation_sep1034_defaults",
    {
      description:
        "Elicits a form whose fields carry default values: string, integer, number, enum, boolean (conformance: elicitation-sep1034-defaults).",
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (_args, ctx) => {
      const result = await ctx.elicit("Please review and update the form fields with defaults", {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: {
            type: "string",
            description: "User status",
            enum: ["active", "inactive", "pending"],
            default: "active",
          },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
      });
      return { content: [text(`Elicitation completed: ${describeElicitation(result)}`)] };
    },
  );
}

function addElicitationEnums(server: ServerDefinition<EdgeEnv>): void {
  server.interactiveTool(
    "test_elicitation_sep1330_enums",
    {
      description:
        "Elicits a form with every enum form: untitled, titled and legacy single-select, untitled and titled multi-select (conformance: elicitation-sep1330-enums).",
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (_args, ctx) => {
      const result = await ctx.elicit("Please select options from the enum fields", {
        type: "object",
        properties: {
          untitledSingle: {
            type: "string",
            description: "Select one option",
            enum: ["option1", "option2", "option3"],
          },
          titledSingle: {
            type: "string",
            description: "Select one option with titles",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Select one option (legacy enumNames)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Select multiple options",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Select multiple options with titles",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      });
      return { content: [text(`Elicitation completed: ${describeElicitation(result)}`)] };
    },
  );
}

function addStreams(server: ServerDefinition<EdgeEnv>): void {
  server
    .interactiveTool(
      "test_reconnection",
      {
        description:
          "Closes its SSE stream, keeps running and sends the result for the client to fetch by resuming (conformance: server-sse-polling).",
        annotations: READ_ONLY,
      },
      async (_args, ctx) => {
        ctx.closeStream();
        await sleep(300);
        return { content: [text("Reconnection test completed")] };
      },
    )

    .interactiveTool(
      "stream_progress",
      {
        description: "Sends `count` progress notifications as fast as possible, then returns `done <count>` (for benchmarks).",
        input: z.object({
          count: z.number().int().min(0).max(100_000).describe("How many progress notifications to send"),
        }),
        annotations: READ_ONLY,
      },
      async ({ count }, ctx) => {
        for (let i = 1; i <= count; i++) {
          ctx.signal.throwIfAborted();
          await ctx.progress(i, count);
        }
        return { content: [text(`done ${count}`)] };
      },
    );
}

function addCountdownAndRoots(server: ServerDefinition<EdgeEnv>): void {
  server
    .interactiveTool(
      "slow_countdown",
      {
        description: "Counts down the given seconds, logging and reporting progress each second; stops when the request is cancelled.",
        input: z.object({
          seconds: z.number().min(0).max(60).describe("How long to count down, in seconds (at most 60)"),
        }),
        annotations: READ_ONLY,
      },
      async ({ seconds }, ctx) => {
        let elapsed = 0;
        while (elapsed < seconds) {
          await ctx.log("info", `Countdown: ${Math.ceil(seconds - elapsed)} s left`, "slow_countdown");
          const step = Math.min(1, seconds - elapsed);
          await abortableSleep(step * 1000, ctx.signal);
          elapsed += step;
          await ctx.progress(elapsed, seconds);
        }
        return { content: [text(`Countdown of ${seconds} s finished`)] };
      },
    )

    .interactiveTool(
      "ask_roots",
      {
        description: "Asks the client for its roots (roots/list) and returns their URIs as a JSON array.",
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async (_args, ctx) => {
        const roots = await ctx.listRoots();
        return { content: [text(JSON.stringify(roots.map((r) => r.uri)))] };
      },
    );
}

export function addInteractiveTools(server: ServerDefinition<EdgeEnv>): void {
  addLoggingProgressAndSampling(server);
  addSamplingWithTools(server);
  addElicitation(server);
  addElicitationDefaults(server);
  addElicitationEnums(server);
  addStreams(server);
  addCountdownAndRoots(server);
}
