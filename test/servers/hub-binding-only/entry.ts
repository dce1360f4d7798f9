/**
 * A Worker whose MCP_HUB binding is there while its edge passes no hub(): `features: [sessions()]`, and the
 * hub's class exported as a Worker that hosts an SDK bus's hub exports it (`hubObject()`, no edge). Nothing
 * links its 2025 sessions to the hub (test/e2e/sessions-without-hub.test.ts).
 */
import { createMcpEdge, defineServer, hubObject } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";

const NOTE_URI = "note://only";

const server = defineServer({ name: "hub-binding-only", version: "1.0.0" }).resource(
  NOTE_URI,
  { name: "note", mimeType: "text/plain" },
  (uri) => ({
    uri,
    text: "a note",
  }),
);

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
export const McpHub = hubObject();
