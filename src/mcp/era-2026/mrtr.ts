/**
 * Multi round-trip requests, the whole protocol side (the 2026-07-28 lane only carries bytes).
 * One run of a handler on the 2026-07-28 lane under multi round-trip requests
 * (basic/patterns/mrtr.mdx; docs/eras.md "Multi round-trip requests (MRTR)"). An ask whose key has an answer returns it at
 * once; an unanswered ask never settles and ends the run: once the handler's promise chains
 * have gone QUIET_STEPS microtask steps without a new ask (so `Promise.all` of several asks,
 * even asks a few awaits apart, collects them all) `ended` resolves and the lane answers
 * `input_required` with every outstanding ask. Keys are the author's, or the ask's call order.
 */
import { INTERNAL_ERROR, INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import { errorMessage, resultMessage, type Params, type RequestMessage, type ResponseMessage } from "../../jsonrpc/messages";
import { isObject } from "../../jsonrpc/parse";
import { withServerInfo } from "./result-2026";
import { canonicalArguments, secretProblem, signState, verifyState, type StateBinding } from "./request-state";
import type { McpServer } from "../definition/server";

/**
 * Microtask steps without a new ask after which a run that asked has ended; an ask that waits on
 * I/O or a timer comes in the next round (docs/engine-notes.md "Counting quiet microtask steps in an MRTR run").
 */
const QUIET_STEPS = 32;

/** Only these may answer `input_required` (mrtr.mdx: "MUST NOT … on any other client requests"). */
const MRTR_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** Whether a request may answer `input_required`: the core's MRTR methods, and interactive methods of the server's own. */
function mayAsk(message: RequestMessage, settings: RoundSettings): boolean {
  return MRTR_METHODS.has(message.method) || settings.ownMethod === true;
}

/** A method's own params: without `_meta` and the retry's `inputResponses` and `requestState`. */
function ownParams(params: Params): Params {
  const { _meta, inputResponses, requestState, ...own } = params;
  return own;
}

export interface InputAsk {
  method: string;
  params: Params;
}

/**
 * The `inputResponses` of a retry, checked as a map of objects (mrtr.mdx "Error handling":
 * protocol errors are JSON-RPC errors); undefined when absent.
 */
function readInputResponses(params: Params | undefined): Record<string, Params> | undefined {
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
  /** Resolves once the run has asked something it has no answer for and then gone QUIET_STEPS steps without asking again. */
  readonly ended: Promise<void>;
  private end!: () => void;
  private calls = 0;
  /** Microtask steps since the last ask; -1 until the run asks something it has no answer for. */
  private quiet = -1;

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
    if (this.quiet < 0) void this.countdown();
    this.quiet = 0;
    // Never settles: the handler's run ends here and starts again from the top on the retry.
    return new Promise<Params>(() => undefined);
  }

  /** Counts microtask steps (awaits) of a run that asked; ends it after QUIET_STEPS without a new ask. */
  private async countdown(): Promise<void> {
    while (++this.quiet < QUIET_STEPS) await null;
    this.end();
  }
}

/** What a round needs from the lane: who asks (the state is bound to them), the secret and how long a state lives. */
export interface RoundSettings {
  /** The authenticated principal's subject, or "" without auth. */
  subject: string;
  /** The `MCP_STATE_SECRET` binding's value, as configured (checked here). */
  secret: unknown;
  ttlMs: number;
  /** The request is for an interactive method of the server's own (defineInteractiveMethod): it may ask too. */
  ownMethod?: boolean;
}

/**
 * One request's multi round-trip round (mrtr.mdx): the answers it brings (a verified
 * `requestState`'s, then its `inputResponses`), the run its handler's asks go to, and the answer
 * the lane sends when the handler finished or stopped to ask. Every MRTR rule and error code of
 * the 2026-07-28 lane is decided here; the lane only carries the bytes.
 */
export class MrtrRound {
  /** Rejects asks from methods that may not answer `input_required`, else collects them (a retry's: once its state is verified). */
  run: MrtrRun;
  /**
   * Whether this request continues a call begun in an earlier round: its `requestState` verified.
   * A call counts once, whatever its rounds (rate limits read this); a state that does not verify never opens a round.
   */
  continuesCall = false;
  private bound: StateBinding | undefined;

  private constructor(
    private readonly message: RequestMessage,
    private readonly settings: RoundSettings,
    answers: Record<string, Params>,
  ) {
    this.run = new MrtrRun(answers);
  }

  /**
   * The round of `message`; throws an RpcError (the request's answer) for a bad `requestState` or
   * `inputResponses`. Synchronous unless a `requestState` must be verified (WebCrypto is async).
   */
  static open(message: RequestMessage, settings: RoundSettings): MrtrRound | Promise<MrtrRound> {
    if (!mayAsk(message, settings)) return new MrtrRound(message, settings, {});
    const responses = readInputResponses(message.params) ?? {};
    const state = message.params?.requestState;
    const round = new MrtrRound(message, settings, responses);
    if (state === undefined) return round;
    // The same round once verified: the binding computed to verify it is the one a new state signs.
    return round.verified(state, responses).then((answers) => {
      round.run = new MrtrRun(answers);
      round.continuesCall = true;
      return round;
    });
  }

  /** An ask of the handler: collected (or answered) for an MRTR method, refused for any other. */
  ask(method: string, params: Params, key: string | undefined): Promise<Params> {
    // mrtr.mdx: only tools/call, prompts/get and resources/read may answer input_required.
    if (!mayAsk(this.message, this.settings))
      return Promise.reject(new RpcError(INVALID_PARAMS, `${this.message.method} cannot ask the client for input`));
    return this.run.request(method, params, key);
  }

  /** `input_required` with every outstanding ask and a freshly signed state carrying the answers used so far. */
  async inputRequired<Env>(server: McpServer<Env>): Promise<ResponseMessage> {
    const id = this.message.id;
    const problem = secretProblem(this.settings.secret);
    if (problem) {
      console.error(`mcp-edge: a handler asked the client for input, but ${problem}`);
      // The fix is the server operator's, but the first to meet this is the developer's own client.
      return errorMessage(id, { code: INTERNAL_ERROR, message: `This server cannot ask the client for input: ${problem}` });
    }
    const requestState = await signState(this.settings.secret as string, this.binding(), this.run.used, { ttlMs: this.settings.ttlMs });
    const inputRequests = Object.fromEntries([...this.run.asks].map(([key, ask]) => [key, { method: ask.method, params: ask.params }]));
    return resultMessage(id, withServerInfo({ resultType: "input_required", inputRequests, requestState }, server));
  }

  /** What a state is bound to: the principal, the method, the name and the canonical arguments (computed once, only when needed). */
  private binding(): StateBinding {
    if (!this.bound) {
      const params = this.message.params ?? {};
      const name = this.message.method === "resources/read" ? params.uri : params.name;
      // A method of the server's own has no `arguments`: its state is bound to its params (without the protocol's fields).
      const args = canonicalArguments(this.settings.ownMethod ? ownParams(params) : params.arguments);
      this.bound = { subject: this.settings.subject, method: this.message.method, name: typeof name === "string" ? name : "", args };
    }
    return this.bound;
  }

  /** The answers a retry brings: those inside its verified `requestState`, then its `inputResponses`. */
  private async verified(state: unknown, responses: Record<string, Params>): Promise<Record<string, Params>> {
    if (typeof state !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: requestState must be the string the server sent");
    const problem = secretProblem(this.settings.secret);
    if (problem) {
      console.error(`mcp-edge: cannot verify a requestState: ${problem}`);
      throw new RpcError(INTERNAL_ERROR, `This server cannot continue multi round-trip requests: ${problem}`);
    }
    const check = await verifyState(this.settings.secret as string, state, this.binding());
    if (!check.ok) throw new RpcError(INVALID_PARAMS, `Invalid params: ${check.problem}`);
    // Answers of earlier rounds were verified; they win over a retry's attempt to change them.
    return { ...responses, ...check.answers };
  }
}
