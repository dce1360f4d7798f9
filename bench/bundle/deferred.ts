/** Sessions, deferred: a session's object made when it first needs state. */
import { createMcpEdge, deferredSessionObject } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = deferredSessionObject(edge);
