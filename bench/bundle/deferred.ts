/** Sessions, deferred: a session's object made when it first needs state. */
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { features: [sessions({ deferred: true })] });
export default edge.worker;
export const { McpSession } = edge.objects;
