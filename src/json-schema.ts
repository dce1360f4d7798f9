/**
 * `mcp-edge/json-schema`: the full JSON Schema 2020-12 validator, for a server whose raw tool schemas use more than
 * the core vocabulary every Worker checks (anyOf, oneOf, allOf, not, if/then/else, $ref and $defs,
 * patternProperties, prefixItems, contains, unevaluated*, format, …): `defineServer({ name, version,
 * jsonSchema: fullJsonSchema })`. A Worker that never imports it bundles none of it (docs/server.md
 * "Raw JSON Schema validation").
 */
export { fullJsonSchema } from "./mcp/json-schema/compile";
export type { JsonSchemaCompiler, JsonSchemaProblem, JsonSchemaValidator } from "./mcp/json-schema/types";
