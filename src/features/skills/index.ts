/**
 * `mcp-edge/skills`: Agent Skills served as MCP resources (the `io.modelcontextprotocol/skills`
 * extension). `server.skill(defineSkill({ … }))` adds one; docs/skills.md.
 */
export {
  defineSkill,
  type SkillDefinition,
  type SkillConfig,
  type SkillFileInput,
  type SkillFileContent,
} from "./skills";
