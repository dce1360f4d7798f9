/**
 * Tool schemas: a raw JSON Schema (2020-12, kept verbatim for tools/list), any Standard
 * Schema that can emit JSON Schema (zod 4.2+, valibot, arktype), or an SDK-style shape of them
 * (`{ value: z.number() }`); zod 3.25's `zod/v4` (and zod 4.0, 4.1) with zod's own converter, passed
 * as `defineServer({ toJSONSchema })`, since those schemas cannot convert themselves. Each schema is compiled once,
 * at definition; a raw JSON Schema by mcp-edge's core validator (../json-schema/core.ts), or by the server's
 * `jsonSchema` (`fullJsonSchema`, all of 2020-12), both building checks instead of generating code (code
 * generation is forbidden on Workers).
 */
import { coreJsonSchema } from "../json-schema/core";
import type { JsonSchemaCompiler } from "../json-schema/types";

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

/**
 * zod's `toJSONSchema` (`import { z } from "zod/v4"`, then `z.toJSONSchema`): what turns a zod schema that lacks
 * Standard JSON Schema (zod 3.25's `zod/v4`, zod 4.0 and 4.1) into JSON Schema. `never`: any function taking a
 * schema first fits, whatever its own schema type; mcp-edge hands it only schemas of zod's v4 core.
 */
export type JsonSchemaConverter = (schema: never, params: { target: "draft-2020-12"; io: "input" | "output" }) => unknown;

/** How a server turns the schemas of its definitions into checks: defineServer's `toJSONSchema` and `jsonSchema`. */
export interface SchemaCompilers {
  readonly toJSONSchema?: JsonSchemaConverter | undefined;
  readonly jsonSchema?: JsonSchemaCompiler | undefined;
}

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

/** A plain object whose every value is a Standard Schema (or an empty object: no arguments). */
function isShape(schema: SchemaInput): schema is ZodStyleShape {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || isStandard(schema)) return false;
  return Object.values(schema).every(isStandard);
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
function compileShape(shape: ZodStyleShape, side: "input" | "output", what: string, convert?: JsonSchemaConverter): CompiledSchema {
  const entries = Object.entries(shape);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [key, property] of entries) {
    properties[key] = jsonSchemaOf(property, side, `${what}: the schema of "${key}"`, convert);
    // A property is optional when its schema accepts a missing value (`.optional()`, `.default()`).
    const missing = property["~standard"].validate(undefined);
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

/** A schema of zod's v4 core (zod 4, or zod 3.25's `zod/v4`): it has `_zod` with its major version. */
function isZodV4Core(schema: object): boolean {
  const internals = (schema as { _zod?: { version?: { major?: unknown } } })._zod;
  return internals?.version?.major === 4;
}

/** A classic zod 3 schema (`import { z } from "zod"` in zod 3.x): `_def` and no v4 internals. */
function isZod3Classic(schema: object, vendor: string): boolean {
  return vendor === "zod" && "_def" in schema && !("_zod" in schema);
}

/**
 * The JSON Schema of one Standard Schema: its own (Standard JSON Schema), else zod's converter for a
 * v4 core schema, else a TypeError that says what to do. The conversion's root `$schema` names 2020-12,
 * the default dialect of MCP tool schemas, so dropping it changes nothing, and some clients (Genkit's)
 * refuse every tool that carries one. A raw JSON Schema keeps an author's `$schema` verbatim.
 */
function jsonSchemaOf(schema: StandardJsonSchema, side: "input" | "output", what: string, convert?: JsonSchemaConverter): JsonSchema {
  const std = schema["~standard"];
  if (std.jsonSchema) return withoutDialect(std.jsonSchema[side]({ target: "draft-2020-12" }));
  if (isZodV4Core(schema)) {
    if (!convert) {
      throw new TypeError(
        `${what} is a zod schema that cannot produce JSON Schema by itself (zod 3.25's "zod/v4", or zod 4.0/4.1): pass zod's converter once, defineServer({ name, version, toJSONSchema: z.toJSONSchema }) with z from "zod/v4", or upgrade to zod 4.2 or later`,
      );
    }
    // `never` in JsonSchemaConverter: the function is zod's, and this is a schema of zod's v4 core.
    const json = convert(schema as never, { target: "draft-2020-12", io: side });
    if (typeof json !== "object" || json === null || Array.isArray(json))
      throw new TypeError(`${what}: defineServer's toJSONSchema returned no JSON Schema object; pass zod's z.toJSONSchema`);
    return withoutDialect(json as JsonSchema);
  }
  if (isZod3Classic(schema, std.vendor)) {
    throw new TypeError(
      `${what} is a zod 3 schema, which cannot produce JSON Schema: import { z } from "zod/v4" (zod 3.25 ships it; then pass defineServer({ toJSONSchema: z.toJSONSchema })), or upgrade to zod 4`,
    );
  }
  throw new TypeError(
    `${what} is a ${std.vendor} schema that cannot produce JSON Schema (it lacks Standard JSON Schema's ~standard.jsonSchema): upgrade ${std.vendor} to a version that has it, or pass JSON Schema`,
  );
}

/**
 * Compiles a schema once. `side` picks the JSON Schema of a Standard Schema's input or output; `compilers`: the
 * server's `toJSONSchema` (for zod schemas that cannot convert themselves) and `jsonSchema` (for raw JSON Schema;
 * the core validator without it).
 */
export function compileSchema(schema: SchemaInput, side: "input" | "output", what: string, compilers?: SchemaCompilers): CompiledSchema {
  const convert = compilers?.toJSONSchema;
  if (isStandard(schema)) {
    const std = schema["~standard"];
    const json = jsonSchemaOf(schema, side, what, convert);
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
  // zod before 3.24 has no Standard Schema at all: without this it would read as a JSON Schema with functions in it.
  if ("_def" in schema && typeof (schema as { parse?: unknown }).parse === "function") {
    throw new TypeError(
      `${what} is a zod 3 schema, which cannot produce JSON Schema: upgrade to zod 4 (or to zod 3.25 and import { z } from "zod/v4")`,
    );
  }
  if (isShape(schema)) return compileShape(schema, side, what, convert);
  const mixed = Object.entries(schema).find((entry): entry is [string, StandardJsonSchema] => isStandard(entry[1]));
  if (mixed) {
    throw new TypeError(
      `${what}: "${mixed[0]}" is a ${mixed[1]["~standard"].vendor} schema but other keys are not; pass a shape of schemas ({ a: z.string() }), z.object(...) or plain JSON Schema`,
    );
  }
  let copy: unknown;
  try {
    // A copy: what is validated cannot change if the author's object does later, and it must be plain JSON.
    copy = structuredClone(schema);
  } catch {
    throw new TypeError(`${what}: a JSON Schema must be plain JSON (no functions or class instances)`);
  }
  const validator = (compilers?.jsonSchema ?? coreJsonSchema)(copy, what);
  return {
    json: schema,
    validate(value) {
      const problems = validator(value);
      if (problems.length === 0) return { ok: true, value };
      return {
        ok: false,
        message: problems
          .slice(0, 5)
          .map((p) => `${p.at || "/"}: ${p.message}`)
          .join("; "),
      };
    },
  };
}

export const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: "object", properties: {} }) as JsonSchema;
