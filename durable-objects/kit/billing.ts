/**
 * What an object costs where no MCP operation counts it, told to the server's `onEvent` (only for
 * the classes of an observed server): the requests it receives that no observed caller counted
 * (a hub shard's, whose callers are publishers, sessions and other shards; an alarm), the requests
 * it makes that their receiver does not report (a hub shard's calls to 2025 sessions), every row
 * its storage writes as the platform bills it (each SQL cursor's `rowsWritten`, one per key-value
 * put or delete, one per `setAlarm`/`deleteAlarm`, and every row `deleteAll` removes), and each
 * WebSocket message a held stream's socket brings it (billed at 1/20 of a request). Each event
 * carries what accrued since the previous one, so the sums are exact even when a batch's calls
 * run after the request that queued them.
 */
import type { Observer, Place } from "../../src/mcp/operations/observe";

export class ObjectBill {
  private requests = 0;
  private messages = 0;
  private rows = 0;
  private readonly cursors: { readonly rowsWritten: number }[] = [];
  /** Work that must settle before the next event, so what it costs is told with the request that started it. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly observer: Observer,
    private readonly place: Place,
    private readonly env: unknown,
  ) {}

  /** `storage` with every billed row counted (the object keeps using it as its storage). */
  meter(storage: DurableObjectStorage): DurableObjectStorage {
    const cursors = this.cursors;
    const sql = storage.sql;
    const exec = <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): SqlStorageCursor<T> => {
      const cursor = sql.exec<T>(query, ...bindings);
      cursors.push(cursor);
      return cursor;
    };
    const countedSql = new Proxy(sql, { get: (target, prop) => (prop === "exec" ? exec : bound(target, prop)) });
    const counted: Partial<DurableObjectStorage> = {
      setAlarm: (at, options) => {
        this.rows += 1;
        return storage.setAlarm(at, options);
      },
      deleteAlarm: (options) => {
        this.rows += 1;
        return storage.deleteAlarm(options);
      },
      deleteAll: (options) => {
        this.rows += storedRows(storage);
        return storage.deleteAll(options);
      },
    };
    return new Proxy(storage, {
      get: (target, prop) => {
        if (prop === "sql") return countedSql;
        if (typeof prop === "string" && prop in counted) return counted[prop as keyof typeof counted];
        return bound(target, prop);
      },
    });
  }

  /** Requests this object made that their receiver does not report. */
  made(n: number): void {
    this.requests += n;
  }

  /** Work started by the request being served that may outlive it (an outbox's send). */
  follow(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** The rows written since the previous event (for an operation's meter: `Meter.rows`). */
  takeRows(): number {
    const rows = this.cursors.reduce((n, cursor) => n + cursor.rowsWritten, this.rows);
    this.cursors.length = 0;
    this.rows = 0;
    return rows;
  }

  /** One request served (`received`: 1, or 0 for one its caller counts), reported once its follow-up work settled. */
  async report(method: string, received: number, messages = 0, place = this.place): Promise<void> {
    this.messages += messages;
    while (this.pending.size > 0) await Promise.all(this.pending);
    const rowsWritten = this.takeRows();
    const doRequests = this.requests + received;
    const webSocketMessages = this.messages;
    this.requests = 0;
    this.messages = 0;
    if (doRequests === 0 && rowsWritten === 0 && webSocketMessages === 0) return;
    this.observer.emitOwn(place, method, this.env, { doRequests, rowsWritten, webSocketMessages });
  }
}

/** Rows in every table of the object and keys of its key-value store: what deleteAll bills as written. */
function storedRows(storage: DurableObjectStorage): number {
  const sql = storage.sql;
  const tables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .toArray();
  let rows = 0;
  for (const { name } of tables) rows += sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`).one().n;
  for (const _ of storage.kv.list()) rows += 1;
  return rows;
}

function bound(target: object, prop: string | symbol): unknown {
  const value = Reflect.get(target, prop) as unknown;
  return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}
