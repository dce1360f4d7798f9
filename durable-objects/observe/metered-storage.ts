/**
 * The one row counter of every object: a view of its storage that counts each row the platform
 * bills as written (each SQL cursor's `rowsWritten`, one per key-value put or delete, one per
 * `setAlarm`/`deleteAlarm`, and every row `deleteAll` removes), until an operation's event takes
 * them (`takeRows`). The object uses `storage` in place of `ctx.storage`; nothing else counts rows.
 * Made only for an observed server (observed-object.ts decides), so an unobserved object pays nothing,
 * and bundled only with the `observe()` feature.
 */

/** What a cursor tells of its statement once it ran: the rows it wrote. */
interface WrittenRows {
  readonly rowsWritten: number;
}

export class MeteredStorage {
  /** The object's storage, every billed row counted. */
  readonly storage: DurableObjectStorage;
  private rows = 0;
  private readonly cursors: WrittenRows[] = [];
  /** The counting views of `sql` and `kv`, made on first use (an object without SQLite never reads `sql`). */
  private sql: SqlStorage | undefined;
  private kv: SyncKvStorage | undefined;

  constructor(storage: DurableObjectStorage) {
    const setAlarm = this.counted(storage.setAlarm.bind(storage), 1);
    const deleteAlarm = this.counted(storage.deleteAlarm.bind(storage), 1);
    const deleteAll = this.deleteAll(storage);
    this.storage = new Proxy(storage, {
      get: (target, prop) => {
        if (prop === "sql") return this.sqlOf(target);
        if (prop === "kv") return this.kvOf(target);
        if (prop === "setAlarm") return setAlarm;
        if (prop === "deleteAlarm") return deleteAlarm;
        if (prop === "deleteAll") return deleteAll;
        return bound(target, prop);
      },
    });
  }

  /** The rows written since the previous call: the operation event that ends now reports them. */
  takeRows(): number {
    const rows = this.cursors.reduce((n, cursor) => n + cursor.rowsWritten, this.rows);
    this.cursors.length = 0;
    this.rows = 0;
    return rows;
  }

  private sqlOf(storage: DurableObjectStorage): SqlStorage {
    if (this.sql === undefined) this.sql = this.countedSql(storage.sql);
    return this.sql;
  }

  private kvOf(storage: DurableObjectStorage): SyncKvStorage {
    if (this.kv === undefined) this.kv = this.countedKv(storage.kv);
    return this.kv;
  }

  private countedSql(sql: SqlStorage): SqlStorage {
    const exec = <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): SqlStorageCursor<T> => {
      const cursor = sql.exec<T>(query, ...bindings);
      this.cursors.push(cursor);
      return cursor;
    };
    return new Proxy(sql, { get: (target, prop) => (prop === "exec" ? exec : bound(target, prop)) });
  }

  private countedKv(kv: SyncKvStorage): SyncKvStorage {
    const put = this.counted(kv.put.bind(kv), 1);
    const remove = this.counted(kv.delete.bind(kv), 1);
    return new Proxy(kv, {
      get: (target, prop) => {
        if (prop === "put") return put;
        if (prop === "delete") return remove;
        return bound(target, prop);
      },
    });
  }

  /** `write` with `rows` counted for each call. */
  private counted<A extends unknown[], R>(write: (...args: A) => R, rows: number): (...args: A) => R {
    return (...args) => {
      this.rows += rows;
      return write(...args);
    };
  }

  /** deleteAll bills every row it removes: counted before they go. */
  private deleteAll(storage: DurableObjectStorage): DurableObjectStorage["deleteAll"] {
    return (options) => {
      this.rows += storedRows(storage);
      return storage.deleteAll(options);
    };
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

/** A property of the real storage, its methods bound to it (workerd's storage methods need their receiver). */
function bound(target: object, prop: string | symbol): unknown {
  const value = Reflect.get(target, prop) as unknown;
  return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}
