/**
 * Tool schemas: a raw JSON Schema (2020-12, kept verbatim for tools/list), any Standard
 * Schema that can emit JSON Schema (zod 4, valibot, arktype), or an SDK-style shape of them
 * (`{ value: z.number() }`). Each schema is compiled once,
 * at definition; validation uses @cfworker/json-schema, which interprets schemas instead of
 * generating code (code generation is forbidden on Workers).
 */
import { Validator, type Schema } from "@cfworker/json-schema";

export type JsonSchema = Record<string, unknown>;

/**
 * The parts of the Standard Schema / Standard JSON Schema interfaces this runtime uses. Optional
 * members say `| undefined` so that zod matches it under a user's exactOptionalPropertyTypes.
 */
export interface StandardJsonSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?:
      | {
          input(options: { target: string }): Record<string, unknown>;
          output(options: { target: string }): Record<string, unknown>;
        }
      | undefined;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** The MCP SDK's habit: the properties of an object, each a Standard Schema (`{ value: z.number() }`). */
export type ZodStyleShape = { readonly [key: string]: StandardJsonSchema };

export type SchemaInput = JsonSchema | StandardJsonSchema | ZodStyleShape;

type OutputOf<S> = S extends StandardJsonSchema<infer O> ? O : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** A shape's value: keys whose schema accepts undefined (`.optional()`) are optional. */
type ShapeOutput<S extends ZodStyleShape> = Simplify<
  { [K in keyof S as undefined extends OutputOf<S[K]> ? never : K]: OutputOf<S[K]> } & {
    [K in keyof S as undefined extends OutputOf<S[K]> ? K : never]?: OutputOf<S[K]>;
  }
>;

/** What a schema of a given kind yields after validation. */
export type InferSchema<S> = S extends StandardJsonSchema<infer O> ? O : S extends ZodStyleShape ? ShapeOutput<S> : Record<string, unknown>;

type Validation = { ok: true; value: unknown } | { ok: false; message: string };

export interface CompiledSchema {
  /** The JSON Schema sent to clients, computed once. */
  readonly json: JsonSchema;
  validate(value: unknown): Validation | Promise<Validation>;
}

/** A Standard Schema (zod, valibot, …) rather than a raw JSON Schema object. */
export function isStandard(schema: unknown): schema is StandardJsonSchema {
  return typeof schema === "object" && schema !== null && "~standard" in schema;
}

function withoutDialect(json: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

function toValidation(r: StandardResult<unknown>): Validation {
  return r.issues
    ? {
        ok: false,
        message: r.issues.map((i) => formatPath(i.path) + i.message.replace(/, received undefined$/, ", but it is missing")).join("; "),
      }
    : { ok: true, value: r.value };
}

/** An object schema made of a shape's properties; unknown keys are dropped, as `z.object` does. */
function compileShape(shape: ZodStyleShape, side: "input" | "output", what: string): CompiledSchema {
  const entries = Object.entries(shape);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [key, property] of entries) {
    const std = property["~standard"];
    if (!std.jsonSchema) {
      throw new TypeError(
        `${what}: the ${std.vendor} schema of "${key}" cannot produce JSON Schema; use a newer version or pass JSON Schema`,
      );
    }
    properties[key] = withoutDialect(std.jsonSchema[side]({ target: "draft-2020-12" }));
    // A property is optional when its schema accepts a missing value (`.optional()`, `.default()`).
    const missing = std.validate(undefined);
    if (missing instanceof Promise || missing.issues) required.push(key);
  }
  const json: JsonSchema = required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
  return {
    json,
    async validate(value) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, message: "/: must be an object" };
      const record = value as Record<string, unknown>;
      const results = await Promise.all(entries.map(([key, property]) => property["~standard"].validate(record[key])));
      const out: Record<string, unknown> = {};
      const problems: string[] = [];
      results.forEach((result, i) => {
        const key = (entries[i] as [string, StandardJsonSchema])[0];
        if (result.issues) {
          for (const issue of result.issues) {
            problems.push(formatPath([key, ...(issue.path ?? [])]) + issue.message.replace(/, received undefined$/, ", but it is missing"));
          }
        } else if (result.value !== undefined || key in record) {
          out[key] = result.value;
        }
      });
      return problems.length > 0 ? { ok: false, message: problems.join("; ") } : { ok: true, value: out };
    },
  };
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
    // The conversion's root `$schema` names 2020-12, the default dialect of MCP tool schemas, so
    // dropping it changes nothing, and some clients (Genkit's) refuse every tool that carries one.
    // A raw JSON Schema below keeps an author's `$schema` verbatim.
    const json = withoutDialect(std.jsonSchema[side]({ target: "draft-2020-12" }));
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
  // A plain object whose every value is a Standard Schema (or an empty object: no arguments).
  if (!isStandard(schema) && Object.values(schema).every(isStandard)) return compileShape(schema as ZodStyleShape, side, what);
  const mixed = Object.entries(schema).find(([, value]) => isStandard(value));
  if (mixed) {
    throw new TypeError(
      `${what}: "${mixed[0]}" is a ${(mixed[1] as StandardJsonSchema)["~standard"].vendor} schema but other keys are not; pass a shape of schemas ({ a: z.string() }), z.object(...) or plain JSON Schema`,
    );
  }
  let copy: Schema;
  try {
    // The validator annotates the schema object it gets; give it a copy so the listed schema stays verbatim.
    copy = structuredClone(schema) as Schema;
  } catch {
    throw new TypeError(`${what}: a JSON Schema must be plain JSON (no functions or class instances)`);
  }
  const validator = new Validator(copy, "2020-12", false);
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
