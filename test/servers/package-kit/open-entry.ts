/**
 * The package-kit server behind a test entry that accepts test tokens on any host
 * (`allowNonLoopbackHosts`): what the doctor must fail when it answers on a deployed host
 * (test/e2e/doctor/doctor.test.ts).
 */
import { testEntry } from "../../../src/testing/test-entry";
import { server } from "./server";

const entry = testEntry(server, { testAuth: { allowNonLoopbackHosts: true } });
export default entry.worker;
export const { McpSession, McpHub, McpTask, McpUser } = entry.objects;
