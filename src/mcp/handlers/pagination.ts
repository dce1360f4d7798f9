/**
 * Opaque cursors for every list method (2025-06-18 "Pagination"). A cursor encodes the list it
 * belongs to and an offset; clients must not parse it. A cursor that does not decode, or that
 * belongs to another list, is -32602.
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";

/** The cursor of `offset` in `list`: the two, base64 without padding. */
function encodeCursor(list: string, offset: number): string {
  return btoa(`${list}:${offset}`).replace(/=+$/, "");
}

function decodeCursor(list: string, cursor: unknown): number {
  if (typeof cursor !== "string") throw new RpcError(INVALID_PARAMS, "Invalid cursor: must be a string returned by a previous list call");
  let decoded: string;
  try {
    decoded = atob(cursor);
  } catch {
    throw new RpcError(INVALID_PARAMS, "Invalid cursor: not a cursor this server issued");
  }
  const [prefix, offsetText] = decoded.split(":");
  const offset = Number(offsetText);
  if (prefix !== list || !Number.isSafeInteger(offset) || offset < 0) {
    throw new RpcError(INVALID_PARAMS, "Invalid cursor: not a cursor this server issued for this list");
  }
  return offset;
}

/** One page of `items` for the request's cursor, with `nextCursor` when more remain. */
export function paginate<T>(
  list: string,
  items: readonly T[],
  params: Params | undefined,
  pageSize: number,
): { page: T[]; nextCursor?: string } {
  const offset = params?.cursor === undefined ? 0 : decodeCursor(list, params.cursor);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < items.length ? { page, nextCursor: encodeCursor(list, next) } : { page };
}
