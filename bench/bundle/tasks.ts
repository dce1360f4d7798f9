/** Sessions + tasks: a tool that may run as a task, and the task object. */
import { createMcpEdge, sessionObject, taskObject, text } from "../../src/index";
import { server } from "./one-tool";

server.tool("later", { description: "Answers as a task when asked to", task: "optional" }, () => ({ content: [text("done")] }));

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpTask = taskObject(edge);
