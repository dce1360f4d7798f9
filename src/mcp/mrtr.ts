/**
 * One run of a handler on the 2026-07-28 lane under multi round-trip requests
 * (basic/patterns/mrtr.mdx; DESIGN.md "MRTR"). An ask whose key has an answer returns it at
 * once; an unanswered ask never settles and ends the run: after the current turn (so
 * `Promise.all` of several asks collects them all) `ended` resolves and the lane answers
 * `input_required` with every outstanding ask. Keys are the author's, or the ask's call order.
 */
import { INVALID_PARAMS, RpcError } from "../jsonrpc/errors";
import type { Params } from "../jsonrpc/messages";
import { isObject } from "../jsonrpc/parse";

/** Only these may answer `input_required` (mrtr.mdx: "MUST NOT … on any other client requests"). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

export interface InputAsk {
  method: string;
  params: Params;
}

/**
 * The `inputResponses` of a retry, checked as a map of objects (mrtr.mdx "Error handling":
 * protocol errors are JSON-RPC errors); undefined when absent.
 */
export function readInputResponses(params: Params | undefined): Record<string, Params> | undefined {
  if (!params || !("inputResponses" in params) || params.inputResponses === undefined) return undefined;
  const value = params.inputResponses;
  if (!isObject(value))
    throw new RpcError(INVALID_PARAMS, "Invalid params: inputResponses must be an object mapping input request keys to results");
  for (const [key, answer] of Object.entries(value)) {
    if (!isObject(answer))
      throw new RpcError(
        INVALID_PARAMS,
        `Invalid params: inputResponses["${key.slice(0, 64)}"] must be an object (the client's result for that input request)`,
      );
  }
  // Every value was checked to be an object just above.
  return value as Record<string, Params>;
}

export class MrtrRun {
  /** Unanswered asks of this run, by key, in call order. */
  readonly asks = new Map<string, InputAsk>();
  /** The answers this run consumed: what the next `requestState` carries. */
  readonly used: Record<string, Params> = {};
  /** Resolves once the run has asked something it has no answer for, after the current turn. */
  readonly ended: Promise<void>;
  private end!: () => void;
  private calls = 0;
  private ending = false;

  constructor(private readonly answers: Readonly<Record<string, Params>>) {
    this.ended = new Promise<void>((resolve) => {
      this.end = resolve;
    });
  }

  request(method: string, params: Params, key?: string): Promise<Params> {
    const k = key ?? String(this.calls);
    this.calls += 1;
    if (this.asks.has(k) || Object.hasOwn(this.used, k)) {
      return Promise.reject(new Error(`MRTR: the input request key "${k}" was used twice in one run`));
    }
    if (Object.hasOwn(this.answers, k)) {
      const answer = this.answers[k] as Params;
      this.used[k] = answer;
      return Promise.resolve(answer);
    }
    this.asks.set(k, { method, params });
    if (!this.ending) {
      this.ending = true;
      // A macrotask, not a microtask: asks started in the same turn (Promise.all) all get collected.
      setTimeout(() => this.end(), 0);
    }
    // Never settles: the handler's run ends here and starts again from the top on the retry.
    return new Promise<Params>(() => undefined);
  }
}
