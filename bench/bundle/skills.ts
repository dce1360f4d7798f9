/** Sessions + skills: one skill served to clients (Skills extension). */
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { defineSkill } from "../../src/features/skills/index";
import { server } from "./one-tool";

const SKILL_MD = `---
name: echo-politely
description: Use the echo tool to repeat a sentence back
---

Call \`echo\` with the sentence.
`;

server.skill(defineSkill({ skillMd: SKILL_MD }));

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
