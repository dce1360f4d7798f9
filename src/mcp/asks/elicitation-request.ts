/**
 * What `ctx.elicit` and `ctx.elicitUrl` send and accept: a form schema given as zod (or any
 * Standard Schema) or as JSON Schema becomes the spec's `requestedSchema`, the accepted answer
 * is checked against it, and the URL mode request is built in its era's shape (2025-11-25 with an
 * `elicitationId`, 2026-07-28 without).
 */
import { CAPABILITY_UNAVAILABLE, CLIENT_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { checkElicitationSchema, formForCoreValidator } from "./elicitation-schema";
import { compileSchema, isStandard, type CompiledSchema, type SchemaCompilers, type SchemaInput } from "../definition/schema";
import type { ClientCapabilities } from "../definition/types";
import type { ElicitUrlOptions } from "../definition/context";

export interface FormRequest {
  requestedSchema: Record<string, unknown>;
  /** Checks an accepted answer against the form, zod (or any Standard Schema) or plain JSON Schema alike. */
  schema: CompiledSchema;
}

/** Turns the schema a handler passed into the wire's `requestedSchema`, refusing what the spec does not allow. */
export function toFormRequest(schema: SchemaInput, compilers?: SchemaCompilers): FormRequest {
  // A handler usually passes the same schema object on every call (and again on each MRTR retry).
  const key = typeof schema === "object" && schema !== null ? (schema as object) : undefined;
  const known = key && formRequests.get(key);
  if (known) return known;
  const form = buildFormRequest(schema, compilers);
  if (key) formRequests.set(key, form);
  return form;
}

const formRequests = new WeakMap<object, FormRequest>();

function buildFormRequest(schema: SchemaInput, compilers: SchemaCompilers | undefined): FormRequest {
  const standard = isStandard(schema) || (typeof schema === "object" && schema !== null && Object.values(schema).some(isStandard));
  if (standard) {
    const compiled = compileSchema(schema, "input", "elicitation schema", compilers);
    const json = { ...compiled.json };
    // A generated schema forbids extra keys, which is not part of the spec's flat subset (compileSchema drops its `$schema`).
    delete json.additionalProperties;
    const problem = checkElicitationSchema(json);
    if (problem) throw new RpcError(INVALID_PARAMS, `elicitation schema: ${problem}`);
    return { requestedSchema: json, schema: compiled };
  }
  // Plain JSON Schema is sent as written. The server's `jsonSchema` checks the answer against it as written; the core
  // validator against the same form in its own vocabulary (titled options as an enum, formats left to the client).
  const form = schema as Record<string, unknown>;
  const problem = checkElicitationSchema(form);
  if (problem) throw new RpcError(INVALID_PARAMS, `elicitation schema: ${problem}`);
  const checked = compilers?.jsonSchema ? form : formForCoreValidator(form);
  return { requestedSchema: form, schema: compileSchema(checked, "input", "elicitation schema", compilers) };
}

/**
 * An accepted answer that does not fit the form is the client's error: the handler never sees
 * content its own schema refuses (an `accept` without content is checked as `{}`, so a form with
 * a required field refuses it).
 */
export async function checkFormAnswer<T>(schema: CompiledSchema, content: Record<string, unknown>): Promise<T> {
  const checked = await schema.validate(content);
  if (!checked.ok)
    throw new RpcError(CLIENT_ERROR, `elicitation/create: the accepted content does not match the requested schema: ${checked.message}`);
  return checked.value as T;
}

/**
 * Whether the client declared this elicitation mode: an empty `elicitation` object means form
 * only (2025-11-25 and 2026-07-28 "Elicitation" > Capabilities). `capabilities` are the session's
 * on 2025 and the request's own on 2026-07-28, where an undeclared mode is -32021 naming it.
 */
export function requireElicitationMode(capabilities: ClientCapabilities | undefined, mode: "form" | "url", era: "2025" | "2026"): void {
  const declared = capabilities?.elicitation as Record<string, unknown> | undefined | null;
  if (declared === undefined || declared === null) return; // the caller's capability check names this case
  const modes = Object.keys(declared).filter((key) => key === "form" || key === "url");
  const supported = modes.length === 0 ? mode === "form" : modes.includes(mode);
  if (supported) return;
  if (era === "2026") {
    throw new RpcError(
      MISSING_CLIENT_CAPABILITY,
      `elicitation/create in ${mode} mode needs the client capability "elicitation.${mode}", which this request did not declare`,
      { requiredCapabilities: { elicitation: { [mode]: {} } } },
    );
  }
  throw new RpcError(
    CAPABILITY_UNAVAILABLE,
    `elicitation/create is unavailable: the client did not declare the "${mode}" elicitation mode`,
  );
}

/** The params of a URL mode request in its era's shape; the URL must be absolute http(s). */
export function urlElicitationParams(message: string, url: string, options: ElicitUrlOptions, era: "2025" | "2026"): Params {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RpcError(INVALID_PARAMS, `elicitUrl: "${url}" is not an absolute URL`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new RpcError(INVALID_PARAMS, "elicitUrl: the URL must be http or https");
  // 2026-07-28 ElicitRequestURLParams is exactly { mode, message, url }.
  if (era === "2026") return { mode: "url", message, url: parsed.href };
  return { mode: "url", message, url: parsed.href, elicitationId: options.elicitationId ?? crypto.randomUUID() };
}
