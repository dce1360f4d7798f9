/** logging/setLevel (2025-06-18 "Logging"): the result is exactly `{}`. */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { DispatchContext } from "./dispatch-context";
import { isLoggingLevel, LOGGING_LEVELS } from "../definition/types";

export async function setLogLevel<Env>(params: Params, dispatch: DispatchContext<Env>): Promise<Params> {
  if (!isLoggingLevel(params.level)) {
    throw new RpcError(INVALID_PARAMS, `logging/setLevel: "level" must be one of ${LOGGING_LEVELS.join(", ")}`);
  }
  // Stateless mode has nowhere to keep the level: accepted, and each request logs unfiltered.
  if (dispatch.ops) await dispatch.ops.setLogLevel(params.level);
  return {};
}
