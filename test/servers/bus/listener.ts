/** The Worker that holds the hub (its class) and the client's listen stream (test/e2e/bus/bus.test.ts). */
import { sdkWorker } from "./server";

import { hubObject } from "../../../src/index";

export const McpHub = hubObject();

export default sdkWorker("bus-listener");
