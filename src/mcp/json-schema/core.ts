/**
 * The core JSON Schema validator, in every Worker: the vocabulary hand-written tool schemas use (type, enum,
 * const, properties, required, additionalProperties, items, the bounds of numbers, strings, arrays and objects,
 * pattern, uniqueItems). Any other keyword the full validator knows is a TypeError at definition naming it and the
 * fix (`fullJsonSchema`, compile.ts), so a schema is never checked less than its author wrote. The schema is
 * checked once at definition and read as it is at each call; its messages are the full validator's, word for word.
 * It imports only values.ts: none of the full validator's keyword tables may be reachable from here.
 */
import { isObject } from "../../jsonrpc/parse";
import type { JsonSchemaCompiler, Problem, SchemaObject } from "./types";
import { childAt, codePointLength, describeTypes, hasType, isMultipleOf, jsonEqual, shown, TYPE_NAMES } from "./values";

/** The keywords the full validator checks and the core does not: each is refused where it appears. */
const FULL_ONLY_KEYWORDS = [
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$dynamicRef",
  "$defs",
  "definitions",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "prefixItems",
  "additionalItems",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "format",
];

const FIX =
  'pass jsonSchema: fullJsonSchema (from "mcp-edge/json-schema") in the config that defines the schema (defineServer, ' +
  "defineMethod, defineNotification or defineEvent), or use a Standard Schema such as zod";

/** A bound on numbers: the keyword, how a message says it, and whether a value keeps it. */
type NumberBound = readonly [keyword: string, phrase: string, holds: (value: number, bound: number) => boolean];

const NUMBER_BOUNDS: readonly NumberBound[] = [
  ["minimum", "at least", (value, bound) => value >= bound],
  ["maximum", "at most", (value, bound) => value <= bound],
  ["exclusiveMinimum", "greater than", (value, bound) => value > bound],
  ["exclusiveMaximum", "less than", (value, bound) => value < bound],
];

/** A type's size bounds (a string's in code points): the two keywords, and how a message words them. */
interface SizeRule {
  readonly min: string;
  readonly max: string;
  readonly verb: "be" | "have";
  readonly unit: string;
}

const SIZES: Readonly<Record<"string" | "array" | "object", SizeRule>> = {
  string: { min: "minLength", max: "maxLength", verb: "be", unit: "characters long" },
  array: { min: "minItems", max: "maxItems", verb: "have", unit: "items" },
  object: { min: "minProperties", max: "maxProperties", verb: "have", unit: "properties" },
};

const SIZE_KEYWORDS = Object.values(SIZES).flatMap((rule) => [rule.min, rule.max]);

/** What one validation call carries down the instance: the compiled patterns, and where problems go. */
interface Walk {
  readonly patterns: ReadonlyMap<object, RegExp>;
  readonly problems: Problem[];
}

/** The definition-time pass over one schema: what it refuses or cannot use is a TypeError naming `where`. */
class CoreSchemaCheck {
  readonly patterns = new Map<object, RegExp>();

  constructor(private readonly where: string) {}

  invalid(location: string, problem: string): never {
    throw new TypeError(`${this.where}: the JSON Schema's ${location} ${problem}`);
  }

  schema(schema: unknown, location: string): void {
    if (typeof schema === "boolean") return;
    if (!isObject(schema)) this.invalid(location, "must be a schema (an object or a boolean)");
    for (const keyword of FULL_ONLY_KEYWORDS) if (schema[keyword] !== undefined) this.refuse(keyword, location);
    if (Array.isArray(schema.items)) this.refuse("items", location, " as an array of schemas (a tuple)");
    this.assertionValues(schema, location);
    const properties = schema.properties ?? {};
    if (!isObject(properties)) this.invalid(`${location}/properties`, "must be an object of schemas");
    for (const [key, property] of Object.entries(properties)) this.schema(property, `${location}/properties/${key}`);
    if (schema.additionalProperties !== undefined) this.schema(schema.additionalProperties, `${location}/additionalProperties`);
    if (schema.items !== undefined) this.schema(schema.items, `${location}/items`);
  }

  /** The values of the core's assertion keywords have the shape they need; the pattern is compiled here, once. */
  private assertionValues(schema: SchemaObject, location: string): void {
    const types = [schema.type ?? []].flat();
    if (!types.every((type) => typeof type === "string" && Object.hasOwn(TYPE_NAMES, type)))
      this.invalid(`${location}/type`, `must be one of ${Object.keys(TYPE_NAMES).join(", ")}, or an array of them`);
    for (const keyword of [...NUMBER_BOUNDS.map(([name]) => name), "multipleOf", ...SIZE_KEYWORDS]) {
      const bound = schema[keyword];
      if (bound !== undefined && (typeof bound !== "number" || !Number.isFinite(bound)))
        this.invalid(`${location}/${keyword}`, "must be a number");
    }
    if ((schema.multipleOf as number) <= 0) this.invalid(`${location}/multipleOf`, "must be greater than 0");
    if (schema.enum !== undefined && !Array.isArray(schema.enum)) this.invalid(`${location}/enum`, "must be an array");
    const required = schema.required ?? [];
    if (!Array.isArray(required) || !required.every((key) => typeof key === "string"))
      this.invalid(`${location}/required`, "must be an array of strings");
    if (schema.pattern !== undefined) this.patterns.set(schema, this.pattern(schema.pattern, `${location}/pattern`));
  }

  /** A regular expression compiled with the "u" flag (ECMA-262, as JSON Schema specifies). */
  private pattern(source: unknown, location: string): RegExp {
    if (typeof source !== "string") this.invalid(location, "must be a string (a regular expression)");
    try {
      return new RegExp(source, "u");
    } catch (error) {
      return this.invalid(location, `is not a valid regular expression: ${(error as Error).message}`);
    }
  }

  private refuse(keyword: string, location: string, form = ""): never {
    return this.invalid(
      `${location}/${keyword}`,
      `needs the full JSON Schema validator ("${keyword}"${form} is not in the core vocabulary): ${FIX}`,
    );
  }
}

/** Every problem of `value` against `schema`, in the full validator's order: type, const, enum, then its type's own. */
function checkValue(schema: unknown, value: unknown, at: string, walk: Walk): void {
  if (schema === true) return;
  if (schema === false) return void walk.problems.push({ at, message: "is not allowed" });
  const rules = schema as SchemaObject;
  const report = (message: string) => walk.problems.push({ at, message });
  const types = [rules.type ?? []].flat() as string[];
  if (rules.type !== undefined && !types.some((type) => hasType(value, type))) report(`must be ${describeTypes(types)}`);
  if ("const" in rules && !jsonEqual(value, rules.const)) report(`must be ${shown(rules.const)}`);
  const values = rules.enum as unknown[] | undefined;
  if (values && !values.some((option) => jsonEqual(value, option))) report(`must be one of ${values.map(shown).join(", ")}`);
  if (typeof value === "number") checkNumber(rules, value, report);
  else if (typeof value === "string") checkString(rules, value, report, walk);
  else if (Array.isArray(value)) checkArray(rules, value, at, walk);
  else if (isObject(value)) checkObject(rules, value, at, walk);
}

function checkNumber(rules: SchemaObject, value: number, report: (message: string) => void): void {
  for (const [keyword, phrase, holds] of NUMBER_BOUNDS) {
    const bound = rules[keyword] as number | undefined;
    if (bound !== undefined && !holds(value, bound)) report(`must be ${phrase} ${bound}`);
  }
  const divisor = rules.multipleOf as number | undefined;
  if (divisor !== undefined && !isMultipleOf(value, divisor)) report(`must be a multiple of ${divisor}`);
}

/** minLength/maxLength, minItems/maxItems or minProperties/maxProperties: "must be|have at least|most N <unit>". */
function checkSize(rules: SchemaObject, size: number, { min, max, verb, unit }: SizeRule, report: (message: string) => void): void {
  const least = rules[min] as number | undefined;
  const most = rules[max] as number | undefined;
  if (least !== undefined && size < least) report(`must ${verb} at least ${least} ${unit}`);
  if (most !== undefined && size > most) report(`must ${verb} at most ${most} ${unit}`);
}

function checkString(rules: SchemaObject, value: string, report: (message: string) => void, walk: Walk): void {
  checkSize(rules, codePointLength(value), SIZES.string, report);
  const pattern = walk.patterns.get(rules);
  if (pattern && !pattern.test(value)) report(`must match the pattern ${shown(rules.pattern)}`);
}

function checkArray(rules: SchemaObject, value: unknown[], at: string, walk: Walk): void {
  const report = (message: string) => walk.problems.push({ at, message });
  checkSize(rules, value.length, SIZES.array, report);
  if (rules.uniqueItems === true) {
    const duplicate = firstDuplicate(value);
    if (duplicate) report(`must not have duplicate items (items ${duplicate[0]} and ${duplicate[1]} are equal)`);
  }
  if (rules.items === undefined) return;
  for (const [i, item] of value.entries()) checkValue(rules.items, item, childAt(at, i, walk.problems), walk);
}

/** The indexes [earlier, later] of the first item equal to an earlier one, or undefined. */
function firstDuplicate(items: readonly unknown[]): [number, number] | undefined {
  for (let i = 1; i < items.length; i++) {
    for (let j = 0; j < i; j++) if (jsonEqual(items[i], items[j])) return [j, i];
  }
  return undefined;
}

function checkObject(rules: SchemaObject, value: SchemaObject, at: string, walk: Walk): void {
  const report = (message: string) => walk.problems.push({ at, message });
  for (const key of (rules.required as string[] | undefined) ?? []) {
    if (!Object.hasOwn(value, key)) report(`must have required property ${shown(key)}`);
  }
  checkSize(rules, Object.keys(value).length, SIZES.object, report);
  // The named properties first, in the schema's order, then the others in the instance's (as the full validator).
  const properties = (rules.properties ?? {}) as SchemaObject;
  for (const [key, property] of Object.entries(properties)) {
    if (Object.hasOwn(value, key)) checkValue(property, value[key], childAt(at, key, walk.problems), walk);
  }
  const additional = rules.additionalProperties;
  if (additional === undefined) return;
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(properties, key)) continue;
    if (additional === false) report(`must not have property ${shown(key)}`);
    else checkValue(additional, value[key], childAt(at, key, walk.problems), walk);
  }
}

/**
 * The core validator, every definition's unless the server passes `jsonSchema`: the same problems as
 * `fullJsonSchema` for the core vocabulary, and a TypeError naming the keyword, its location and the fix otherwise.
 */
export const coreJsonSchema: JsonSchemaCompiler = (schema, where) => {
  const check = new CoreSchemaCheck(where);
  check.schema(schema, "#");
  return (instance) => {
    const walk: Walk = { patterns: check.patterns, problems: [] };
    checkValue(schema, instance, "", walk);
    return walk.problems;
  };
};
