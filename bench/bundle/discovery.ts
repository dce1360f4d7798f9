/** Sessions + discovery: the Server Card and the AI Catalog. */
import { sessions } from "../../src/features/sessions/index";
import { discovery } from "../../src/features/discovery/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { features: [sessions(), discovery({ name: "com.example/bundle-size" })] });
export default edge.worker;
export const { McpSession } = edge.objects;
