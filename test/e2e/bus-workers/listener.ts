/** The Worker that holds the hub (its class) and the client's listen stream (test/e2e/bus/bus.test.ts). */
import { sdkWorker } from "./server";

export { McpHub } from "../../../src/index";

export default sdkWorker("bus-listener");
