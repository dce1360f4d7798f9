/** Sessions + tasks: a tool that may run as a task, and the task object. */
import { sessions } from "../../src/features/sessions/index";
import { tasks } from "../../src/features/tasks/index";
import { createMcpEdge, text } from "../../src/index";
import { server } from "./one-tool";

server.tool("later", { description: "Answers as a task when asked to", task: "optional" }, () => ({ content: [text("done")] }));

const edge = createMcpEdge(server, { features: [sessions(), tasks()] });
export default edge.worker;
export const { McpSession, McpTask } = edge.objects;
