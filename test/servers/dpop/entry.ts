/** The main module of the DPoP replay tests: the classes their bindings name, and the demo as its Worker. */
import { createMcpEdge } from "../../../src/edge";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { demoServer } from "../../../src/demo/server";

const edge = createMcpEdge(demoServer);
export default edge.worker;
export const McpSession = sessionObject(edge);
export { DpopReplayObject } from "../../../src/auth/dpop-replay";
