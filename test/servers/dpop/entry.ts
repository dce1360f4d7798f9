/** The main module of the DPoP replay tests: the classes their bindings name, and the demo as its Worker. */
import { createMcpEdge } from "../../../src/edge";
import { demoServer } from "../../../src/demo/server";
import { sessions } from "../../../src/features/sessions/index";

const edge = createMcpEdge(demoServer, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
export { DpopReplayObject } from "../../../src/auth/dpop-replay";
