/** Sessions + apps: one MCP App page (uiResource) beside the one tool. */
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { uiResource } from "../../src/features/apps/index";
import { server } from "./one-tool";

server.add(uiResource("ui://bench/board.html", { name: "board", prefersBorder: true }, () => "<!doctype html><title>Board</title>"));

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
