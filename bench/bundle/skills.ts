/** Sessions + skills: one skill served to clients (Skills extension). */
import { createMcpEdge, defineSkill, sessionObject } from "../../src/index";
import { server } from "./one-tool";

const SKILL_MD = `---
name: echo-politely
description: Use the echo tool to repeat a sentence back
---

Call \`echo\` with the sentence.
`;

server.skill(defineSkill({ skillMd: SKILL_MD }));

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
