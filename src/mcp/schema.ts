/**
 * Tool schemas: a raw JSON Schema (2020-12, kept verbatim for tools/list) or any Standard
 * Schema that can emit JSON Schema (zod 4, valibot, arktype). Each schema is compiled once,
 * at definition; validation uses @cfworker/json-schema, which interprets schemas instead of
 * generating code (code generation is forbidden on Workers).
 */
import { Validator, type Schema } from "@cfworker/json-schema";

export type JsonSchema = Record<string, unknown>;

/** The parts of the Standard Schema / Standard JSON Schema interfaces this runtime uses. */
export interface StandardJsonSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: {
      input(options: { target: string }): Record<string, unknown>;
      output(options: { target: string }): Record<string, unknown>;
    };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

export type SchemaInput = JsonSchema | StandardJsonSchema;

/** What a schema of a given kind yields after validation. */
export type InferSchema<S> = S extends StandardJsonSchema<infer O> ? O : Record<string, unknown>;

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

export interface CompiledSchema {
  /** The JSON Schema sent to clients, computed once. */
  readonly json: JsonSchema;
  validate(value: unknown): Validation | Promise<Validation>;
}

function isStandard(schema: SchemaInput): schema is StandardJsonSchema {
  return typeof schema === "object" && schema !== null && "~standard" in schema;
}

function formatPath(path: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined): string {
  if (!path || path.length === 0) return "";
  return "/" + path.map((p) => String(typeof p === "object" ? p.key : p)).join("/") + ": ";
}

/** Compiles a schema once. `side` picks the JSON Schema of a Standard Schema's input or output. */
export function compileSchema(schema: SchemaInput, side: "input" | "output", what: string): CompiledSchema {
  if (isStandard(schema)) {
    const std = schema["~standard"];
    if (!std.jsonSchema) {
      throw new TypeError(`${what}: this ${std.vendor} schema cannot produce JSON Schema; use a newer version or pass JSON Schema`);
    }
    const json = std.jsonSchema[side]({ target: "draft-2020-12" });
    const toValidation = (r: StandardResult<unknown>): Validation =>
      r.issues
        ? { ok: false, message: r.issues.map((i) => formatPath(i.path) + i.message.replace(/, received undefined$/, ", but it is missing")).join("; ") }
        : { ok: true, value: r.value };
    return {
      json,
      validate(value) {
        const result = std.validate(value);
        return result instanceof Promise ? result.then(toValidation) : toValidation(result);
      },
    };
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new TypeError(`${what}: a schema must be a JSON Schema object or a Standard Schema (e.g. zod)`);
  }
  // The validator annotates the schema object it gets; give it a copy so the listed schema stays verbatim.
  const validator = new Validator(structuredClone(schema) as Schema, "2020-12", false);
  return {
    json: schema,
    validate(value) {
      const result = validator.validate(value);
      if (result.valid) return { ok: true, value };
      // The innermost errors name the offending keyword and location; outer ones repeat them.
      const leaves = result.errors.filter((e) => !/^Property|^Items did not match|^Item at index/.test(e.error));
      const shown = (leaves.length > 0 ? leaves : result.errors).slice(0, 5);
      return { ok: false, message: shown.map((e) => `${e.instanceLocation.replace(/^#/, "") || "/"}: ${e.error}`).join("; ") };
    },
  };
}

export const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: "object", properties: {} }) as JsonSchema;
