// mcp-edge/testing's mintTestToken (src/testing/test-auth.ts) for the Node end-to-end tests, which
// type-check without the Workers types that module's imports need (test-token.d.mts types it).
export { mintTestToken } from "../../../src/testing/test-auth.ts";
