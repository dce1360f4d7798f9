/**
 * `ctx.request`: the HTTP request that started a call, as handlers and middleware read it
 * (url, method, headers, Cloudflare's `cf` properties). The same snapshot wherever the call runs:
 * the Worker builds it from the request; the session object from the request the Worker forwards
 * (its headers, and `cf` in an internal header, durable-objects/sessions/contract.ts); a task's run from
 * the copy its record keeps. Credentials never appear in it, in any place, so a handler cannot
 * come to depend on a token that would be missing in the object or the task: see WITHHELD_HEADERS.
 * Handlers see `headers` as a read-only `Headers`; between the Worker and its objects the
 * snapshot (RequestSnapshot) keeps them as a plain record, which structured clone and JSON carry.
 */
import { NO_PARAMS, toRouteParams, type RouteParams } from "../../wire/route-params";

/** `Headers` without its mutating methods: `get` is case-insensitive, as the Fetch type it is. */
export type ReadonlyHeaders = Omit<Headers, "append" | "delete" | "set">;

export interface RequestInfo {
  /** The request's URL, as the client addressed it. */
  readonly url: string;
  /** The HTTP method (POST for every call; GET for the 2024-11-05 stream). */
  readonly method: string;
  /**
   * The request's headers without the withheld ones (WITHHELD_HEADERS), read-only:
   * `headers.get("X-Tenant")` (any case); `set`, `append` and `delete` throw.
   */
  readonly headers: ReadonlyHeaders;
  /** Cloudflare's `request.cf` (country, colo, ASN, …), or undefined where the platform gave none (tests). */
  readonly cf: Readonly<Record<string, unknown>> | undefined;
  /** The route parameters of the endpoint's path pattern (`/mcp/:tenant` → `{ tenant }`); empty for a literal path. */
  readonly params: RouteParams;
}

/**
 * Headers no handler sees: credentials (a handler reads `ctx.principal`, never the token), and
 * mcp-edge's own internal headers between the Worker and its objects.
 */
const WITHHELD_HEADERS: readonly string[] = ["authorization", "proxy-authorization", "cookie"];
const INTERNAL_PREFIX = "x-mcp-edge-";

/** The plain form of `ctx.request` that is stored (a task's record) and sent (the Worker→object contracts, JSON). */
export interface RequestSnapshot {
  readonly url: string;
  readonly method: string;
  /** Names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly cf: Readonly<Record<string, unknown>> | undefined;
  /** The route parameters (absent in a record stored before routes had them). */
  readonly params?: RouteParams;
}

/** A `Headers` whose mutators throw: a handler reads the request, it never edits it. */
class FrozenHeaders extends Headers {
  #sealed = false;

  constructor(init: Record<string, string>) {
    super(init);
    this.#sealed = true;
  }

  override append(name: string, value: string): void {
    this.#refuse("append");
    super.append(name, value);
  }

  override set(name: string, value: string): void {
    this.#refuse("set");
    super.set(name, value);
  }

  override delete(name: string): void {
    this.#refuse("delete");
    super.delete(name);
  }

  #refuse(method: string): void {
    if (this.#sealed)
      throw new TypeError(
        `mcp-edge: ctx.request.headers is read-only (headers.${method}); copy it first: new Headers(ctx.request.headers)`,
      );
  }

  /** JSON.stringify shows the headers, not an empty object. */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this);
  }
}

function readonlyHeaders(record: Readonly<Record<string, string>>): ReadonlyHeaders {
  return Object.freeze(new FrozenHeaders({ ...record }));
}

/**
 * The request as handlers see it, read from the Request only when a field is first read: most
 * calls never look, and even `request.url` costs a string copy. Read-only: getters, no setters.
 */
class LiveRequestInfo implements RequestInfo {
  readonly #source: Request;
  readonly #cf: Record<string, unknown> | undefined | null;
  #headers: ReadonlyHeaders | undefined;
  #frozenCf: Readonly<Record<string, unknown>> | undefined | null = null;

  readonly params: RouteParams;

  constructor(source: Request, cf: Record<string, unknown> | undefined | null, params: RouteParams = NO_PARAMS) {
    this.#source = source;
    this.#cf = cf;
    this.params = params;
  }

  get url(): string {
    return this.#source.url;
  }

  get method(): string {
    return this.#source.method;
  }

  get headers(): ReadonlyHeaders {
    if (!this.#headers) {
      // Without the credentials and mcp-edge's internal headers.
      const visible: Record<string, string> = {};
      for (const [name, value] of this.#source.headers) {
        if (!WITHHELD_HEADERS.includes(name) && !name.startsWith(INTERNAL_PREFIX)) visible[name] = value;
      }
      this.#headers = readonlyHeaders(Object.freeze(visible));
    }
    return this.#headers;
  }

  get cf(): Readonly<Record<string, unknown>> | undefined {
    if (this.#frozenCf === null) {
      // null: the request's own `cf` (the Worker); else the one the Worker passed along (the session object).
      const cf = this.#cf === null ? (this.#source.cf as Record<string, unknown> | undefined) : this.#cf;
      this.#frozenCf = cf === undefined ? undefined : Object.freeze({ ...cf });
    }
    return this.#frozenCf;
  }

  /** JSON.stringify(ctx.request) shows the fields, not an empty object. */
  toJSON(): RequestSnapshot {
    return requestSnapshot(this);
  }
}

/** `ctx.request` for a request the Worker received (its own `cf`). */
export function requestInfo(request: Request, params?: RouteParams): RequestInfo {
  return new LiveRequestInfo(request, null, params);
}

/** `ctx.request` in the session object: the forwarded request, with the `cf` the Worker passed along. */
export function forwardedRequestInfo(request: Request, cf: Record<string, unknown> | undefined, params?: RouteParams): RequestInfo {
  return new LiveRequestInfo(request, cf, params);
}

/** A plain copy, to store (a task's record) or send (JSON). */
export function requestSnapshot(info: RequestInfo): RequestSnapshot {
  const headers = Object.fromEntries(info.headers as unknown as Iterable<[string, string]>);
  return {
    url: info.url,
    method: info.method,
    headers,
    cf: info.cf === undefined ? undefined : { ...info.cf },
    params: { ...info.params },
  };
}

/** A stored snapshot made read-only again for a handler (the task object's run): the same shape as in the Worker. */
export function frozenRequestInfo(snapshot: RequestSnapshot): RequestInfo {
  const info = {
    url: snapshot.url,
    method: snapshot.method,
    headers: readonlyHeaders(snapshot.headers),
    cf: snapshot.cf === undefined ? undefined : Object.freeze({ ...snapshot.cf }),
    // A record stored before routes had parameters has none.
    params: toRouteParams(snapshot.params),
  };
  return Object.freeze(info);
}
