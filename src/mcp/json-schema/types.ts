/**
 * The shapes the JSON Schema validator is built from: a compiled schema is a `Validate` function, and a
 * keyword compiler turns one schema object into the checks of the keywords it owns.
 */

/** One thing wrong with an instance: where (a JSON pointer, "" for the root) and what, phrased for a person. */
export interface JsonSchemaProblem {
  readonly at: string;
  readonly message: string;
}

/** Validates an instance; an empty list means it is valid, else the problems (leaves, not the schemas around them). */
export type JsonSchemaValidator = (instance: unknown) => readonly JsonSchemaProblem[];

/**
 * Compiles a raw JSON Schema once, when its tool (or other definition) is registered: `defineServer`'s `jsonSchema`
 * option. `where` names the schema for a person ('tool "add" input'); a schema the compiler cannot use is a
 * TypeError that starts with it. mcp-edge's own are the core validator (the default) and `fullJsonSchema`.
 */
export type JsonSchemaCompiler = (schema: unknown, where: string) => JsonSchemaValidator;

/** A problem as the validators build it. */
export interface Problem extends JsonSchemaProblem {
  /** Set by a failed `type` check: the types the instance should have had (anyOf/oneOf merge these). */
  readonly expected?: readonly string[];
}

/** Where problems go; undefined when the caller needs only yes or no (the first failure then ends the walk). */
export type Report = Problem[] | undefined;

/**
 * The object keys and array indexes that the keywords of the schemas applied so far have evaluated, for
 * unevaluatedProperties and unevaluatedItems; undefined when no schema above asks (nothing is recorded).
 */
export type Evaluated = Set<string | number> | undefined;

/** A compiled schema, or one keyword of it: whether `instance` (at pointer `at`) is valid. */
export type Validate = (instance: unknown, at: string, report: Report, evaluated: Evaluated) => boolean;

export type SchemaObject = Record<string, unknown>;

/** What a keyword compiler may ask of the compiler running it. */
export interface Compiler {
  /**
   * Compiles a subschema found at `location` (a schema pointer such as "#/properties/a"). `inPlace`: it applies
   * to the same instance (allOf, not, $ref, …), so reaching itself that way would loop forever (a TypeError).
   */
  subschema(schema: unknown, location: string, inPlace?: boolean): Validate;
  /** Compiles the schema a `$ref` (or `$dynamicRef`) of `from` points to; a reference it cannot resolve is a TypeError. */
  reference(keyword: "$ref" | "$dynamicRef", from: SchemaObject, location: string): Validate;
  /** A TypeError at definition: `keyword` at `location` is not usable, and why. */
  invalid(location: string, problem: string): never;
}

/** Turns the keywords it owns in one schema object into a check, or undefined when the object has none of them. */
export type KeywordCompiler = (schema: SchemaObject, location: string, compiler: Compiler) => Validate | undefined;
