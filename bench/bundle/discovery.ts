/** Sessions + discovery: the Server Card and the AI Catalog. */
import { createMcpEdge, sessionObject } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { discovery: { name: "com.example/bundle-size" } });
export default edge.worker;
export const McpSession = sessionObject(edge);
