/**
 * A project written before features, on purpose: no `features` option, every object class made by its
 * deprecated factory imported from "mcp-edge" (sessionObject, hubObject, taskObject, userObject). Those
 * factories stay one release; this Worker holds that such a project still builds (npm run typecheck) and
 * serves sessions, tasks and publish as it did (test/package/old-idiom.old-idiom.test.ts). The one line it
 * changed on upgrading is the import of `publish`, which moved to "mcp-edge/hub" (CHANGELOG 0.3.0).
 * `server` is exported for the test's edges that skip a factory (what such a project sees then).
 */
import { createMcpEdge, defineServer, hubObject, sessionObject, taskObject, text, userObject, type EdgeEnv } from "../../../src/index";
import { publish } from "../../../src/features/hub/index";

export const NOTES_URI = "file:///notes.txt";

export const server = defineServer<EdgeEnv>({ name: "old-idiom-test", version: "1.0.0" })
  .resource(NOTES_URI, { name: "notes", mimeType: "text/plain" }, (uri) => ({ uri, text: "notes" }))
  .tool(
    "echo",
    { description: "Echoes its text", input: { type: "object", properties: { text: { type: "string" } } } },
    ({ text: said }) => ({
      content: [text(`echo: ${String(said)}`)],
    }),
  )
  .tool("touch", { description: "Publishes a change of the notes" }, async (_args, ctx) => {
    await publish(ctx.env, { type: "resourceUpdated", uri: NOTES_URI });
    return { content: [text("touched")] };
  })
  .tool("remember", { description: "Keeps a note in the caller's ctx.user" }, async (_args, ctx) => {
    await ctx.user.put("note", "kept");
    return { content: [text("kept")] };
  })
  .tool("later", { description: "Runs as a task when the client asks", task: "optional" }, () => ({ content: [text("done later")] }));

const edge = createMcpEdge(server, { tasks: { ttlMs: 60_000 } });

export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpHub = hubObject(edge);
export const McpTask = taskObject(edge);
export const McpUser = userObject(edge);
