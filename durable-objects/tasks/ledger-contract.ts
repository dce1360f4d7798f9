/**
 * The contract of the per-client task ledger (`tasks.maxInFlightPerClient`): how a task object
 * finds the ledger of its client, and the two calls a ledger answers over Workers RPC. The
 * ledger is a role of the task class (bound as MCP_TASK, so the cap needs no binding or migration
 * of its own), played by the object named after a client key; its storage is ledger.ts's.
 * Callers import this file, never the task object's code.
 */
import { ledgerObjectId } from "../../src/platform/addresses";

/** What a task object calls on its client's ledger. */
export interface LedgerRpc extends Rpc.DurableObjectBranded {
  /** Holds `taskId` as in flight until `expiresAt` unless the client already has `limit`; false when full. */
  ledgerReserve(taskId: string, limit: number, expiresAt: number): Promise<boolean>;
  /** `taskId` is no longer in flight (it reached a terminal state or expired); idempotent. */
  ledgerRelease(taskId: string): Promise<void>;
}

/** The ledger of a client key in the task namespace (MCP_TASK): a name, so every task of the client finds the same one. */
export function ledgerOf(namespace: DurableObjectNamespace<LedgerRpc>, clientKey: string): DurableObjectStub<LedgerRpc> {
  return namespace.get(ledgerObjectId(namespace, clientKey));
}
