/**
 * Test-only Worker written as a package user would: imports only the public API, defines the
 * server without a type argument, uses SDK-style zod shapes, typed elicitation (form and URL
 * mode), and keeps its own routes beside the MCP endpoint through `fallback`.
 */
import { z } from "zod";
import { createMcpEdge, defineServer, text, toolError } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";
import { user } from "../../../src/features/user/index";

/** How often the survey handler started: the test kit's `rounds` must agree with it. */
export const surveyRuns = { count: 0 };

const server = defineServer({ name: "package-test", version: "1.0.0" })
  .tool("add", { description: "Adds a and b (b defaults to 0)", input: { a: z.number(), b: z.number().optional() } }, ({ a, b }) => {
    // Type checks (npm run typecheck): the shape types its keys, and `b` is optional, not any.
    // @ts-expect-error a is a number
    const notAString: string = a;
    // @ts-expect-error b may be undefined
    const notOptional: number = b;
    void notAString;
    void notOptional;
    return { content: [text(String(a + (b ?? 0)))] };
  })
  .tool("greet", { description: "Greets someone", input: z.object({ name: z.string() }) }, ({ name }) => ({
    content: [text(`hello ${name}`)],
  }))
  .interactiveTool("register", { description: "Asks for a name and an age (typed form elicitation)" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Who are you?", z.object({ name: z.string(), age: z.number().int().min(0) }));
    if (answer.action !== "accept") return toolError(`no answer: ${answer.action}`);
    const { name, age } = answer.content; // typed: string and number
    // @ts-expect-error age is a number, not any
    const notAString: string = age;
    void notAString;
    return { content: [text(`${name.toUpperCase()} is ${age + 1} next year`)] };
  })
  .interactiveTool("register_plain", { description: "Asks for a name and an age (a plain JSON Schema form)" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Who are you?", {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
      required: ["name", "age"],
      additionalProperties: false,
    });
    if (answer.action !== "accept") return toolError(`no answer: ${answer.action}`);
    return { content: [text(`${String(answer.content.name)} is ${Number(answer.content.age) + 1} next year`)] };
  })
  .interactiveTool(
    "contact_plain",
    { description: "Asks for an e-mail, a plan and topics (format and titled options)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("How do we reach you?", {
        type: "object",
        properties: {
          email: { type: "string", format: "email" },
          plan: {
            type: "string",
            oneOf: [
              { const: "free", title: "Free" },
              { const: "pro", title: "Pro" },
            ],
          },
          topics: {
            type: "array",
            items: {
              anyOf: [
                { const: "news", title: "News" },
                { const: "billing", title: "Billing" },
              ],
            },
          },
        },
        required: ["email", "plan"],
      });
      if (answer.action !== "accept") return toolError(`no answer: ${answer.action}`);
      return { content: [text(`${String(answer.content.email)} on ${String(answer.content.plan)}`)] };
    },
  )
  .interactiveTool("survey", { description: "Asks twice (2026-07-28: a run per answer, MRTR)" }, async (_args, ctx) => {
    surveyRuns.count++;
    const name = await ctx.elicit("Name?", z.object({ name: z.string() }));
    const color = await ctx.elicit("Favourite colour?", z.object({ color: z.string() }));
    if (name.action !== "accept" || color.action !== "accept") return toolError("no answer");
    return { content: [text(`${name.content.name} likes ${color.content.color}`)] };
  })
  .tool("remember", { description: "Uses ctx.user, which needs auth this server lacks" }, async (_args, ctx) => {
    await ctx.user.put("seen", true);
    return { content: [text("remembered")] };
  })
  .interactiveTool("connect", { description: "Sends the user to a URL (URL mode elicitation)" }, async (_args, ctx) => {
    const answer = await ctx.elicitUrl("Connect your account", "https://accounts.example.com/connect?state=1", {
      elicitationId: "connect-1",
    });
    return { content: [text(`user said ${answer.action}`)] };
  });

export const edge = createMcpEdge(server, {
  features: [sessions(), user()],
  fallback: (request) => new Response(`app route ${new URL(request.url).pathname}`, { headers: { "X-Handled-By": "app" } }),
});
export default edge.worker;
export const { McpSession } = edge.objects;
