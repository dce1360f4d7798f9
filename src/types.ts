/**
 * `mcp-edge/types`: the wire. MCP's message types (results, content blocks, capabilities, the
 * 2026-07-28 request envelope), the JSON Schema forms a tool's input and output may take, the
 * protocol revisions served and the JSON-RPC error codes mcp-edge answers with. A server is
 * defined and served without them (its handlers' types infer them); they are for code that
 * builds or reads MCP messages itself.
 */
export type * from "./mcp/definition/types";
// The module's two values, exported as values: `export type *` alone makes them type-only.
export { LOGGING_LEVELS, isLoggingLevel } from "./mcp/definition/types";
export type { RequestEnvelope } from "./mcp/era-2026/envelope";
export type { JsonSchema, StandardJsonSchema, SchemaInput, ZodStyleShape, InferSchema } from "./mcp/definition/schema";
export { SUPPORTED_VERSIONS, LATEST_VERSION, VERSIONS_2026, type ProtocolVersion, type Version2026 } from "./mcp/definition/versions";
export * as errorCodes from "./jsonrpc/errors";
