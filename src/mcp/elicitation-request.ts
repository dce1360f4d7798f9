/**
 * What `ctx.elicit` and `ctx.elicitUrl` send and accept: a form schema given as zod (or any
 * Standard Schema) or as JSON Schema becomes the spec's `requestedSchema`, the accepted answer
 * is checked against it, and the URL mode (2025-11-25) request is built with its id.
 */
import { CAPABILITY_UNAVAILABLE, CLIENT_ERROR, INVALID_PARAMS, RpcError } from "../jsonrpc/errors";
import type { Params } from "../jsonrpc/messages";
import { checkElicitationSchema } from "./elicitation-schema";
import { compileSchema, isStandard, type CompiledSchema, type SchemaInput } from "./schema";
import type { ClientCapabilities } from "./types";

export interface ElicitUrlOptions {
  /** Identifies this interaction (2025-11-25 `elicitationId`); a random UUID by default. */
  elicitationId?: string;
}

export interface FormRequest {
  requestedSchema: Record<string, unknown>;
  /** Checks an accepted answer when the schema was a Standard Schema (zod): the answer is then typed. */
  schema: CompiledSchema | undefined;
}

/** Turns the schema a handler passed into the wire's `requestedSchema`, refusing what the spec does not allow. */
export function toFormRequest(schema: SchemaInput): FormRequest {
  const standard = isStandard(schema) || (typeof schema === "object" && schema !== null && Object.values(schema).some(isStandard));
  const compiled = standard ? compileSchema(schema, "input", "elicitation schema") : undefined;
  const json = compiled ? { ...compiled.json } : (schema as Record<string, unknown>);
  // A generated schema forbids extra keys, which is not part of the spec's flat subset (compileSchema drops its `$schema`).
  if (compiled) delete json.additionalProperties;
  const problem = checkElicitationSchema(json);
  if (problem) throw new RpcError(INVALID_PARAMS, `elicitation schema: ${problem}`);
  return { requestedSchema: json, schema: compiled };
}

/** An accepted answer that does not fit a typed schema is the client's error. */
export async function checkFormAnswer<T>(schema: CompiledSchema | undefined, content: Record<string, unknown>): Promise<T> {
  if (!schema) return content as T;
  const checked = await schema.validate(content);
  if (!checked.ok)
    throw new RpcError(CLIENT_ERROR, `elicitation/create: the accepted content does not match the requested schema: ${checked.message}`);
  return checked.value as T;
}

/**
 * Whether the client declared this elicitation mode: an empty `elicitation` object means form
 * only (2025-11-25 "Elicitation" > Capabilities).
 */
export function requireElicitationMode(capabilities: ClientCapabilities, mode: "form" | "url"): void {
  const declared = capabilities.elicitation as Record<string, unknown> | undefined | null;
  if (declared === undefined || declared === null) return; // the caller's capability check names this case
  const modes = Object.keys(declared).filter((key) => key === "form" || key === "url");
  const supported = modes.length === 0 ? mode === "form" : modes.includes(mode);
  if (!supported) {
    throw new RpcError(
      CAPABILITY_UNAVAILABLE,
      `elicitation/create is unavailable: the client did not declare the "${mode}" elicitation mode`,
    );
  }
}

/** The params of a URL mode request; the URL must be absolute http(s). */
export function urlElicitationParams(message: string, url: string, options: ElicitUrlOptions): Params {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RpcError(INVALID_PARAMS, `elicitUrl: "${url}" is not an absolute URL`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new RpcError(INVALID_PARAMS, "elicitUrl: the URL must be http or https");
  return { mode: "url", message, url: parsed.href, elicitationId: options.elicitationId ?? crypto.randomUUID() };
}
