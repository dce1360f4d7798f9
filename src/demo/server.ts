/**
 * The demo server: every fixture the official MCP conformance suite (0.1.16, server mode)
 * expects, with the exact names and texts the suite checks, plus a few
 * tools that are useful on their own (echo, add, stream_progress, slow_countdown, ask_roots).
 *
 * Layout: simple tools (answered in the Worker), interactive tools (run in the session's
 * Durable Object, may log / report progress / sample / elicit), resources, prompts.
 */
import { z } from "zod";
import {
  audio,
  defineServer,
  embeddedResource,
  image,
  notifyResourceUpdated,
  text,
  toolError,
  type EdgeEnv,
  type ElicitResult,
} from "../index";
import { PNG_1X1_BASE64, WAV_EMPTY_BASE64 } from "./assets";
import { addModernFixtures } from "./modern-fixtures";
import { addExtensionDemos } from "./extensions";

export const demoServer = defineServer<EdgeEnv>({
  name: "mcp-edge-demo",
  version: "0.1.0",
  instructions:
    "Demo and conformance fixture server for mcp-edge. The test_* tools, resources and prompts return fixed " +
    "content for protocol tests; echo and add are plain utilities; stream_progress, slow_countdown and ask_roots " +
    "exercise progress notifications, cancellation and roots.",
});

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

/** Completion helper: the values of a fixed list that start with what the user typed. */
const byPrefix = (values: readonly string[]) => (typed: string) => values.filter((v) => v.startsWith(typed));

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** `User response: ...` / `Elicitation completed: ...` suffix; content only exists on accept. */
function describeElicitation(result: ElicitResult): string {
  const content = "content" in result ? JSON.stringify(result.content) : "null";
  return `action=${result.action}, content=${content}`;
}

// ---------------------------------------------------------------------------------------------
// Simple tools
// ---------------------------------------------------------------------------------------------

demoServer
  .tool(
    "test_simple_text",
    {
      description: "Returns a single fixed text item (conformance: tools-call-simple-text).",
      annotations: READ_ONLY,
    },
    () => ({ content: [text("This is a simple text response for testing.")] }),
  )

  .tool(
    "test_image_content",
    {
      description: "Returns a 1x1 PNG image (conformance: tools-call-image).",
      annotations: READ_ONLY,
    },
    () => ({ content: [image(PNG_1X1_BASE64, "image/png")] }),
  )

  .tool(
    "test_audio_content",
    {
      description: "Returns a minimal (empty) WAV clip (conformance: tools-call-audio).",
      annotations: READ_ONLY,
    },
    () => ({ content: [audio(WAV_EMPTY_BASE64, "audio/wav")] }),
  )

  .tool(
    "test_embedded_resource",
    {
      description: "Returns an embedded text resource (conformance: tools-call-embedded-resource).",
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        embeddedResource({
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        }),
      ],
    }),
  )

  .tool(
    "test_multiple_content_types",
    {
      description: "Returns text, an image and an embedded resource in one result (conformance: tools-call-mixed-content).",
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        text("Multiple content types test:"),
        image(PNG_1X1_BASE64, "image/png"),
        embeddedResource({
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        }),
      ],
    }),
  )

  .tool(
    "test_error_handling",
    {
      description: "Always fails with a tool error result (isError: true), not a protocol error (conformance: tools-call-error).",
      annotations: READ_ONLY,
    },
    () => toolError("This tool intentionally returns an error for testing"),
  )

  .tool(
    "echo",
    {
      description: "Echoes the given text back unchanged.",
      input: z.object({ text: z.string().describe("The text to echo") }),
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    ({ text: value }) => ({ content: [text(value)] }),
  )

  .tool(
    "touch_resource",
    {
      description:
        "Marks a resource as changed (default test://watched-resource): every session subscribed to it gets notifications/resources/updated.",
      input: z.object({ uri: z.string().max(8192).default("test://watched-resource").describe("The resource URI") }),
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ uri }, ctx) => {
      const sessions = await notifyResourceUpdated(ctx.env, uri);
      return { content: [text(`notified ${sessions} session(s)`)] };
    },
  )

  .tool(
    "add",
    {
      description: "Adds two numbers; returns the sum as text and as structured content.",
      input: z.object({
        a: z.number().describe("First addend"),
        b: z.number().describe("Second addend"),
      }),
      output: z.object({ sum: z.number() }),
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    ({ a, b }) => {
      const sum = a + b;
      return { content: [text(`${a} + ${b} = ${sum}`)], structuredContent: { sum } };
    },
  );

// ---------------------------------------------------------------------------------------------
// Interactive tools
// ---------------------------------------------------------------------------------------------

demoServer
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
  )

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
  )

  .interactiveTool(
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
  )

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
  )

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

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

demoServer
  .resource(
    "test://static-text",
    {
      name: "Static text resource",
      description: "A fixed text resource (conformance: resources-read-text).",
      mimeType: "text/plain",
    },
    (uri) => ({ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }),
  )

  .resource(
    "test://static-binary",
    {
      name: "Static binary resource",
      description: "A 1x1 PNG image as a blob (conformance: resources-read-binary).",
      mimeType: "image/png",
    },
    (uri) => ({ uri, mimeType: "image/png", blob: PNG_1X1_BASE64 }),
  )

  .resource(
    "test://watched-resource",
    {
      name: "Watched resource",
      description: "A resource clients can subscribe to (conformance: resources-subscribe, resources-unsubscribe).",
      mimeType: "text/plain",
    },
    (uri) => ({ uri, mimeType: "text/plain", text: "Watched resource content" }),
  )

  .resourceTemplate(
    "test://template/{id}/data",
    {
      name: "Template data",
      description: "JSON data for any id, with the id substituted (conformance: resources-templates-read).",
      mimeType: "application/json",
      complete: { id: byPrefix(["1", "2", "3", "123"]) },
    },
    (uri, variables) => {
      const id = variables.id ?? "";
      return {
        uri,
        mimeType: "application/json",
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      };
    },
  );

// ---------------------------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------------------------

demoServer
  .prompt(
    "test_simple_prompt",
    {
      description: "A prompt without arguments (conformance: prompts-get-simple).",
    },
    () => ({
      messages: [{ role: "user", content: text("This is a simple prompt for testing.") }],
    }),
  )

  .prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two required arguments, both completable (conformance: prompts-get-with-args, completion-complete).",
      arguments: [
        { name: "arg1", description: "First test argument", required: true, complete: byPrefix(["test", "testing", "tested", "other"]) },
        { name: "arg2", description: "Second test argument", required: true, complete: byPrefix(["value", "value1", "value2", "sample"]) },
      ],
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
  )

  .prompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds the resource named by its argument (conformance: prompts-get-embedded-resource).",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: embeddedResource({ uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." }),
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ],
    }),
  )

  .prompt(
    "test_prompt_with_image",
    {
      description: "A prompt that includes an image (conformance: prompts-get-with-image).",
    },
    () => ({
      messages: [
        { role: "user", content: image(PNG_1X1_BASE64, "image/png") },
        { role: "user", content: text("Please analyze the image above.") },
      ],
    }),
  );

// The 2026-07-28 conformance fixtures (MRTR, capability checks), in their own module.
addModernFixtures(demoServer);
addExtensionDemos(demoServer);
