/** The Worker whose tool publishes: bound to the listener Worker's hub (script_name). */
import { sdkWorker } from "./server";

export default sdkWorker("bus-publisher");
