/**
 * The platform's meter, as a test can see it: wraps an object class so every request it receives
 * (HTTP fetch, each RPC method of its contract, each alarm; WebSocket messages apart) is counted under the object's kind, and
 * its storage so every row the platform bills is counted: the SQL cursors' own `rowsWritten`
 * (table creation, inserts, upserts, deletes), one row per key-value `put`/`delete`, one per
 * `setAlarm`/`deleteAlarm`, and every row and key `deleteAll` removes. Nothing else is counted: this is what the invoice would say, object by object.
 */
import { hubObject } from "../../../src/features/hub/hub-object";
import { deferredSessionObject, sessionObject } from "../../../src/features/sessions/session-object";
import type { McpEdge } from "../../../src/edge";
import type { EdgeEnv } from "../../../src/kernel/env";
import { taskObject } from "../../../src/features/tasks/task-object";

/** What the objects of this isolate were billed for since the last `resetMeter()`. */
export interface Billed {
  /** One entry per object request: "<kind>.<method>" ("session.init", "session.alarm", "hub.deliver"). */
  requests: string[];
  /** WebSocket messages the objects received (each billed at 1/20 of a request), not in `requests`. */
  webSocketMessages: number;
  /** Rows written: SQL cursors, key-value puts and deletes, setAlarm/deleteAlarm, rows deleteAll removed. */
  rows: number;
  /**
   * Rows written by kind of request and what wrote them ("events.alarm webhook_outbox", "events.alarm setAlarm"):
   * each row is billed to the request that started last before it was written (exact when an object's requests do
   * not overlap, as emits and alarms here), and to the table its statement names.
   */
  rowsBy: Record<string, number>;
}

const cursors: { cursor: { rowsWritten: number }; request: number; what: string }[] = [];
/** Rows written outside SQL cursors, each with the request it is billed to and what wrote it. */
const extraRows: { rows: number; request: number; what: string }[] = [];
const requests: { object: string; what: string }[] = [];

export function resetMeter(): void {
  cursors.length = 0;
  extraRows.length = 0;
  requests.length = 0;
}

function addExtraRows(rows: number, what: string): void {
  extraRows.push({ rows, request: requests.length - 1, what });
}

/** The table a statement writes (INSERT INTO t, UPDATE t, DELETE FROM t), or "sql". */
function tableOf(query: string): string {
  return /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)/i.exec(query)?.[1] ?? "sql";
}

export function billed(): Billed {
  const all = requests.map((r) => r.what);
  return {
    requests: all.filter((what) => !what.endsWith(".webSocketMessage")),
    webSocketMessages: all.filter((what) => what.endsWith(".webSocketMessage")).length,
    rows: extraRows.reduce((n, e) => n + e.rows, 0) + cursors.reduce((n, c) => n + c.cursor.rowsWritten, 0),
    rowsBy: rowsByKind(),
  };
}

function rowsByKind(): Record<string, number> {
  const by: Record<string, number> = {};
  const bill = (request: number, rows: number, writer: string) => {
    if (rows === 0) return;
    const what = `${requests[request]?.what ?? "outside a request"} ${writer}`;
    by[what] = (by[what] ?? 0) + rows;
  };
  for (const { cursor, request, what } of cursors) bill(request, cursor.rowsWritten, what);
  for (const { rows, request, what } of extraRows) bill(request, rows, what);
  return by;
}

/**
 * The meter's two routes in a bench Worker (bench/cost, bench/events, bench/webhooks): `GET /__cost` answers what was
 * billed since the last `POST /__cost/reset`. Any other path is not the meter's: undefined.
 */
export function meterRoute(pathname: string): Response | undefined {
  if (pathname === "/__cost/reset") {
    resetMeter();
    return new Response(null, { status: 204 });
  }
  if (pathname === "/__cost") return Response.json(billed());
  return undefined;
}

/** The requests one object (by its id's hex string) received since the last `resetMeter()`. */
export function requestsOf(objectId: string): string[] {
  return requests.filter((r) => r.object === objectId).map((r) => r.what);
}

/** Rows in every table of this object and keys of its key-value store, which deleteAll bills as written. */
function countRows(storage: DurableObjectStorage): number {
  const sql = storage.sql;
  const tables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .toArray();
  const rows = tables.reduce((n, { name }) => n + sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`).one().n, 0);
  return rows + [...storage.kv.list()].length;
}

/**
 * Meters an object's storage in place (the runtime accepts only its own DurableObjectState, so the
 * methods are replaced on the storage objects themselves, before the object's constructor runs).
 */
function meterStorage(storage: DurableObjectStorage): void {
  const marked = storage as DurableObjectStorage & { metered?: true };
  if (marked.metered) return;
  marked.metered = true;
  const sql = storage.sql;
  const exec = sql.exec.bind(sql);
  sql.exec = ((query: string, ...bindings: unknown[]) => {
    const cursor = exec(query, ...bindings);
    cursors.push({ cursor, request: requests.length - 1, what: tableOf(query) });
    return cursor;
  }) as typeof sql.exec;
  const setAlarm = storage.setAlarm.bind(storage);
  storage.setAlarm = (at, options) => {
    addExtraRows(1, "setAlarm");
    return setAlarm(at, options);
  };
  const deleteAlarm = storage.deleteAlarm.bind(storage);
  storage.deleteAlarm = (options) => {
    addExtraRows(1, "deleteAlarm");
    return deleteAlarm(options);
  };
  const deleteAll = storage.deleteAll.bind(storage);
  storage.deleteAll = (options) => {
    addExtraRows(countRows(storage), "deleteAll");
    return deleteAll(options);
  };
  // The key-value store: one row per key written or deleted.
  const kv = storage.kv;
  const put = kv.put.bind(kv);
  kv.put = (key, value) => {
    addExtraRows(1, "kv");
    put(key, value);
  };
  const remove = kv.delete.bind(kv);
  kv.delete = (key) => {
    addExtraRows(1, "kv");
    return remove(key);
  };
}

/** Any object class: `edge.objects`' (env typed `never`) and the bound classes, which take more constructor arguments than the runtime passes. */
type ObjectClass = new (ctx: DurableObjectState, env: never, ...bound: never[]) => object;

/** `Base` with every request to it counted as "<kind>.<method>" and its storage metered. */
export function metered<C extends ObjectClass>(Base: C, kind: string, rpc: readonly string[]): C {
  const Metered = class extends (Base as new (ctx: DurableObjectState, env: never) => object) {
    constructor(ctx: DurableObjectState, env: never) {
      meterStorage(ctx.storage);
      super(ctx, env);
    }
  };
  const proto = (Base as { prototype: Record<string, (...a: unknown[]) => unknown> }).prototype;
  for (const name of ["fetch", "alarm", "webSocketMessage", ...rpc]) {
    const real = proto[name];
    if (typeof real !== "function") continue;
    Object.defineProperty(Metered.prototype, name, {
      value(this: object, ...args: unknown[]) {
        requests.push({ object: (this as { ctx?: DurableObjectState }).ctx?.id.toString() ?? "", what: `${kind}.${name}` });
        return real.apply(this, args);
      },
    });
  }
  return Metered as unknown as C;
}

/**
 * The demo's three object classes made from `edge`, each metered with the RPC methods of its contract. On the
 * deprecated factories on purpose (with test/servers/old-idiom): the costs docs/costs.md counts hold for a
 * project written before features too, as long as those factories ship.
 */
export function meteredObjects(edge: McpEdge<EdgeEnv>, deferred?: McpEdge<EdgeEnv>) {
  // With `deferred`: deferredSessionObject's class (deferred sessions on that edge; `edge`'s eager sessions the same as ever).
  const sessions = deferred ? deferredSessionObject(deferred) : sessionObject(edge);
  return {
    McpSession: metered(sessions, "session", ["init", "confirm", "resourceUpdated", "listChanged", "settled"]),
    McpTask: metered(taskObject(edge), "task", [
      "taskCreate",
      "taskGet",
      "taskVisible",
      "taskUpdate",
      "taskCancel",
      "ledgerReserve",
      "ledgerRelease",
    ]),
    McpHub: metered(hubObject(edge), "hub", ["register", "unregister", "forget", "publish", "activate", "deliver", "closeListeners"]),
  };
}
