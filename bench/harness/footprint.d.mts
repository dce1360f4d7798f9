/** Resident memory (bytes) of the given processes (from /proc). */
export function workerdRss(pids: number[]): number;
/** Bytes of the SQLite files (database, -wal, -shm) under `dir`, recursively. */
export function sqliteBytes(dir: string): number;
