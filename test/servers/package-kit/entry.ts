/**
 * Test-only Worker: what a user tests with mcp-edge/testing once past the first hour, written with the public API
 * only (server.ts), served through testEntry() as docs/testing.md shows.
 */
import { testEntry } from "../../../src/testing/test-entry";
import { server } from "./server";

// The test-only entry mcp-edge/testing ships: testAuth() in place of a production verifier, every object class.
const entry = testEntry(server, { testAuth: { toolScopes: { admin: ["admin"] } } });
export default entry.worker;
export const { McpSession, McpHub, McpTask, McpUser } = entry.objects;
