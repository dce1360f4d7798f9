/** Sessions, deferred: a session's object made when it first needs state. */
import { deferredSessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { features: [deferredSessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
