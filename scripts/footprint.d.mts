/** Resident memory (bytes) of the workerd processes in process group `groupId` (from /proc). */
export function workerdRss(groupId: number): number;
/** Bytes of the SQLite files (database, -wal, -shm) under `dir`, recursively. */
export function sqliteBytes(dir: string): number;
