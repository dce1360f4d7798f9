/**
 * The demo server: every fixture the official MCP conformance suite (0.1.16, server mode)
 * expects, with the exact names and texts the suite checks, plus a few
 * tools that are useful on their own (echo, add, stream_progress, slow_countdown, ask_roots).
 *
 * Layout: simple tools (answered in the Worker), interactive tools (run in the session's
 * Durable Object, may log / report progress / sample / elicit), resources, prompts.
 */
import { z } from "zod";
import { audio, defineServer, embeddedResource, image, text, toolError, type EdgeEnv } from "../index";
import { notifyResourceUpdated } from "../features/hub/index";
import { DEMO_ICONS, PNG_1X1_BASE64, READ_ONLY, WAV_EMPTY_BASE64 } from "./assets";
import { addInteractiveTools } from "./interactive-tools";
import { addResourcesAndPrompts } from "./resources-and-prompts";
import { fullJsonSchema } from "../json-schema";
import { add2026Fixtures } from "./fixtures-2026";
import { addExtensionDemos } from "./extensions";
import { addSkillDemos } from "./skills";

export const demoServer = defineServer<EdgeEnv>({
  name: "mcp-edge-demo",
  version: "0.1.0",
  // Its conformance fixtures use all of JSON Schema 2020-12 ($defs, allOf, if/then/else) and titled elicitation enums (oneOf).
  jsonSchema: fullJsonSchema,
  description: "The mcp-edge demo: conformance fixtures and a few small tools, served from Cloudflare Workers.",
  icons: DEMO_ICONS,
  instructions:
    "Demo and conformance fixture server for mcp-edge. The test_* tools, resources and prompts return fixed " +
    "content for protocol tests; echo and add are plain utilities; stream_progress, slow_countdown and ask_roots " +
    "exercise progress notifications, cancellation and roots.",
});

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
      icons: DEMO_ICONS,
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
  )

  // SEP-2106: structured output of any JSON type. 2025-era clients get these wrapped as { result }.
  .tool(
    "split_words",
    {
      description: "Splits text into words; the structured result is an array (its JSON text is added for clients that read only text).",
      input: z.object({ text: z.string().max(10_000).describe("The text to split") }),
      output: z.array(z.string()),
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    ({ text: value }) => ({ content: [], structuredContent: value.split(/\s+/).filter((word) => word.length > 0) }),
  )

  .tool(
    "count_words",
    {
      description: "Counts the words in a text; the structured result is a bare integer.",
      input: z.object({ text: z.string().max(10_000).describe("The text to count") }),
      output: z.number().int(),
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    ({ text: value }) => {
      const count = value.split(/\s+/).filter((word) => word.length > 0).length;
      return { content: [text(`${count} words`)], structuredContent: count };
    },
  );

// Interactive tools, then resources and prompts (registration order is listing order).
addInteractiveTools(demoServer);
addResourcesAndPrompts(demoServer);

// The 2026-07-28 conformance fixtures (MRTR, capability checks), in their own module.
add2026Fixtures(demoServer);
addExtensionDemos(demoServer);
addSkillDemos(demoServer);
