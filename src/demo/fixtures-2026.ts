/**
 * The fixtures the 2026-07-28 conformance scenarios (0.2.0-alpha.12) look for (and the JSON
 * Schema 2020-12 tool both suite versions read), with the names,
 * keys and texts their sources use. They are ordinary interactive tools and one interactive
 * prompt: the same handler code asks through MRTR on 2026-07-28 and through the session
 * object on 2025-era sessions. `key` only names an ask in the 2026 `inputRequests` map.
 */
import { text, type EdgeEnv, type ServerDefinition as McpServer } from "../index";
import type { ElicitResult } from "../types";

const NAME_SCHEMA = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

function accepted(result: ElicitResult, field: string): string | undefined {
  if (result.action !== "accept") return undefined;
  const value = result.content[field];
  return typeof value === "string" ? value : value === undefined ? undefined : String(value);
}

function question(textValue: string, maxTokens: number) {
  return { messages: [{ role: "user" as const, content: { type: "text" as const, text: textValue } }], maxTokens };
}

function addSchemaAndCapabilityFixtures(server: McpServer<EdgeEnv>): void {
  server
    // Both suites check this one: 0.1.16 its $schema/$defs/additionalProperties, 0.2 also SEP-2106's keywords.
    .tool(
      "json_schema_2020_12_tool",
      {
        description:
          "Declares a JSON Schema 2020-12 input schema with $schema, $defs and additionalProperties (conformance: json-schema-2020-12).",
        // Passed as a plain object so tools/list emits it verbatim.
        input: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          // conformance 0.2 (SEP-2106) also checks $anchor, allOf/anyOf and if/then/else survive verbatim.
          $defs: {
            address: {
              $anchor: "addressDef",
              type: "object",
              properties: {
                street: { type: "string" },
                city: { type: "string" },
              },
            },
          },
          properties: {
            name: { type: "string" },
            address: { $ref: "#/$defs/address" },
            contactMethod: { type: "string", enum: ["phone", "email"] },
            phone: { type: "string" },
            email: { type: "string" },
          },
          allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
          if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
          then: { required: ["phone"] },
          else: { required: ["email"] },
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args) => ({ content: [text(`Received: ${JSON.stringify(args)}`)] }),
    )
    .interactiveTool(
      "test_missing_capability",
      {
        description:
          "Needs the client's sampling capability; a 2026-07-28 request that does not declare it gets 400 -32021 (conformance: server-stateless).",
      },
      async (_args, ctx) => {
        const answer = await ctx.sample(question("Say hello", 20));
        return { content: [text(answer.content.type === "text" ? answer.content.text : "[non-text answer]")] };
      },
    );
}

function addStreamingAndFirstAsks(server: McpServer<EdgeEnv>): void {
  server
    .interactiveTool(
      "test_streaming_elicitation",
      {
        description:
          "Logs, then asks the user a question: on 2026-07-28 its stream carries only notifications and the input_required result (conformance: server-stateless).",
      },
      async (_args, ctx) => {
        await ctx.log("info", "about to ask the user");
        const answer = await ctx.elicit("What is your name?", NAME_SCHEMA, { key: "user_name" });
        return { content: [text(`Hello, ${accepted(answer, "name") ?? "stranger"}!`)] };
      },
    )
    .interactiveTool(
      "test_logging_tool",
      {
        description:
          "Logs three info messages; a 2026-07-28 request without a log level in _meta gets none of them (conformance: server-stateless).",
      },
      async (_args, ctx) => {
        for (const step of ["started", "working", "done"]) await ctx.log("info", `test_logging_tool ${step}`);
        return { content: [text("logged three messages")] };
      },
    )
    .interactiveTool(
      "test_input_required_result_elicitation",
      {
        description: "Asks for the user's name (key user_name) and greets them (conformance: input-required-result-*).",
      },
      async (_args, ctx) => {
        const answer = await ctx.elicit("What is your name?", NAME_SCHEMA, { key: "user_name" });
        return { content: [text(`Hello, ${accepted(answer, "name") ?? "stranger"}!`)] };
      },
    )
    .interactiveTool(
      "test_input_required_result_sampling",
      {
        description: "Asks the client's model for the capital of France (key capital_question) and returns its answer.",
      },
      async (_args, ctx) => {
        const answer = await ctx.sample(question("What is the capital of France?", 100), { key: "capital_question" });
        return { content: [text(answer.content.type === "text" ? answer.content.text : "[non-text answer]")] };
      },
    );
}

function addRootsStateAndMultipleInputs(server: McpServer<EdgeEnv>): void {
  server
    .interactiveTool(
      "test_input_required_result_list_roots",
      {
        description: "Asks for the client's roots (key client_roots) and lists them.",
      },
      async (_args, ctx) => {
        const roots = await ctx.listRoots({ key: "client_roots" });
        return { content: [text(`Roots: ${roots.map((r) => r.uri).join(", ") || "(none)"}`)] };
      },
    )
    .interactiveTool(
      "test_input_required_result_request_state",
      {
        description: "Asks for a confirmation (key confirm); the retry carries a verified requestState and answers state-ok.",
      },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          "Please confirm",
          { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
          { key: "confirm" },
        );
        return { content: [text(`state-ok: ${answer.action}`)] };
      },
    )
    .interactiveTool(
      "test_input_required_result_multiple_inputs",
      {
        description: "Asks three questions together: an elicitation, a sampling and roots; combines the answers.",
      },
      async (_args, ctx) => {
        const [name, greeting, roots] = await Promise.all([
          ctx.elicit("What is your name?", NAME_SCHEMA, { key: "user_name" }),
          ctx.sample(question("Generate a greeting", 50), { key: "greeting" }),
          ctx.listRoots({ key: "client_roots" }),
        ]);
        const said = greeting.content.type === "text" ? greeting.content.text : "";
        return { content: [text(`${said} ${accepted(name, "name") ?? "stranger"} (${roots.length} roots)`)] };
      },
    );
}

function addRoundsAndTampering(server: McpServer<EdgeEnv>): void {
  server
    .interactiveTool(
      "test_input_required_result_multi_round",
      {
        description: "Asks twice in sequence (step1, then step2): two rounds of input_required before the result.",
      },
      async (_args, ctx) => {
        const name = await ctx.elicit("Step 1: What is your name?", NAME_SCHEMA, { key: "step1" });
        const color = await ctx.elicit(
          "Step 2: What is your favorite color?",
          {
            type: "object",
            properties: { color: { type: "string" } },
            required: ["color"],
          },
          { key: "step2" },
        );
        return { content: [text(`${accepted(name, "name") ?? "someone"} likes ${accepted(color, "color") ?? "no colour"}`)] };
      },
    )
    .interactiveTool(
      "test_input_required_result_tampered_state",
      {
        description: "Asks for a confirmation; a retry whose requestState was altered is refused with -32602.",
      },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          "Please confirm",
          { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
          { key: "confirm" },
        );
        return { content: [text(`confirmed: ${answer.action}`)] };
      },
    )
    .interactiveTool(
      "test_input_required_result_capabilities",
      {
        description: "Asks only what this request's client capabilities allow: sampling if declared, elicitation if declared.",
      },
      async (_args, ctx) => {
        const caps = ctx.clientCapabilities ?? {};
        const asks: Promise<unknown>[] = [];
        if (caps.sampling) asks.push(ctx.sample(question("Pick a number", 10), { key: "sampling_request" }));
        if (caps.elicitation)
          asks.push(
            ctx.elicit("Pick a colour", { type: "object", properties: { color: { type: "string" } } }, { key: "elicitation_request" }),
          );
        await Promise.all(asks);
        return { content: [text(`asked ${asks.length} question(s)`)] };
      },
    );
}

function addHeaderAndPromptFixtures(server: McpServer<EdgeEnv>): void {
  server
    .tool(
      "test_header_param",
      {
        description:
          "Echoes its region, which clients mirror into the Mcp-Param-Region header (conformance: http-custom-header-server-validation).",
        input: {
          type: "object",
          properties: { region: { type: "string", description: "Where to run", "x-mcp-header": "Region" }, query: { type: "string" } },
          required: ["region"],
        },
      },
      (args) => ({ content: [text(`region: ${String((args as { region?: unknown }).region)}`)] }),
    )
    .interactivePrompt(
      "test_input_required_result_prompt",
      {
        description: "A prompt that first asks the user for context (key user_context), then uses it.",
      },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          "What context should the prompt use?",
          {
            type: "object",
            properties: { context: { type: "string" } },
            required: ["context"],
          },
          { key: "user_context" },
        );
        return { messages: [{ role: "user", content: text(`Use this context: ${accepted(answer, "context") ?? "none"}`) }] };
      },
    );
}

export function add2026Fixtures(server: McpServer<EdgeEnv>): void {
  addSchemaAndCapabilityFixtures(server);
  addStreamingAndFirstAsks(server);
  addRootsStateAndMultipleInputs(server);
  addRoundsAndTampering(server);
  addHeaderAndPromptFixtures(server);
}
