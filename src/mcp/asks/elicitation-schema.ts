/**
 * Checks an elicitation `requestedSchema` against the spec's restricted form (2025-06-18
 * "Elicitation" > Requested Schema, extended by 2025-11-25 SEP-1034 defaults and SEP-1330
 * enums): a flat object whose properties are primitives or enums. Returns a message naming
 * the first problem, or undefined when the schema is acceptable.
 */
import { isObject } from "../../jsonrpc/parse";

const STRING_FORMATS = ["email", "uri", "date", "date-time"];

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

function isTitledOptions(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((o) => isObject(o) && typeof o.const === "string" && typeof o.title === "string");
}

function checkProperty(name: string, p: unknown): string | undefined {
  if (!isObject(p)) return `property "${name}" must be an object`;
  for (const key of ["title", "description"]) {
    if (p[key] !== undefined && typeof p[key] !== "string") return `property "${name}": "${key}" must be a string`;
  }
  switch (p.type) {
    case "string": {
      if (p.enum !== undefined || p.oneOf !== undefined) {
        if (p.enum !== undefined && (!isStringArray(p.enum) || p.enum.length === 0))
          return `property "${name}": "enum" must be a non-empty array of strings`;
        if (p.oneOf !== undefined && !isTitledOptions(p.oneOf)) return `property "${name}": "oneOf" must list {const, title} string pairs`;
        if (p.enumNames !== undefined && (!isStringArray(p.enumNames) || !Array.isArray(p.enum) || p.enumNames.length !== p.enum.length)) {
          return `property "${name}": "enumNames" must be strings, one per "enum" value`;
        }
      } else if (p.format !== undefined && !STRING_FORMATS.includes(String(p.format))) {
        return `property "${name}": format must be one of ${STRING_FORMATS.join(", ")}`;
      }
      if (p.default !== undefined && typeof p.default !== "string") return `property "${name}": "default" must be a string`;
      return undefined;
    }
    case "number":
    case "integer":
      if (p.default !== undefined && typeof p.default !== "number") return `property "${name}": "default" must be a number`;
      return undefined;
    case "boolean":
      if (p.default !== undefined && typeof p.default !== "boolean") return `property "${name}": "default" must be a boolean`;
      return undefined;
    case "array": {
      const items = p.items;
      if (!isObject(items)) return `property "${name}": a multi-select needs "items"`;
      const untitled = items.type === "string" && isStringArray(items.enum) && items.enum.length > 0;
      const titled = isTitledOptions(items.anyOf);
      if (!untitled && !titled)
        return `property "${name}": "items" must be {type: "string", enum: [...]} or {anyOf: [{const, title}, ...]}`;
      if (p.default !== undefined && !isStringArray(p.default)) return `property "${name}": "default" must be an array of strings`;
      return undefined;
    }
    default:
      return `property "${name}": type must be string, number, integer, boolean or an enum array (nested objects are not allowed)`;
  }
}

export function checkElicitationSchema(schema: unknown): string | undefined {
  if (!isObject(schema) || schema.type !== "object") return 'requestedSchema must be an object schema ({type: "object", ...})';
  if (!isObject(schema.properties)) return "requestedSchema needs a properties object";
  for (const [name, p] of Object.entries(schema.properties)) {
    const problem = checkProperty(name, p);
    if (problem) return problem;
  }
  if (schema.required !== undefined && !isStringArray(schema.required)) return '"required" must be an array of property names';
  return undefined;
}

/** The `const`s of a titled option list (`oneOf` or `anyOf` of `{const, title}`), as an `enum`. */
function optionValues(options: unknown): unknown[] {
  return (options as { const: unknown }[]).map((option) => option.const);
}

/** One form property in the core validator's vocabulary (see formForCoreValidator). */
function corePropertyOf(property: Record<string, unknown>): Record<string, unknown> {
  const { format: _format, oneOf, ...rest } = property;
  if (oneOf !== undefined) rest.enum = optionValues(oneOf);
  const items = property.items;
  if (isObject(items) && items.anyOf !== undefined) rest.items = { type: "string", enum: optionValues(items.anyOf) };
  return rest;
}

/**
 * A form that passed checkElicitationSchema, as the core JSON Schema validator checks its answer: a titled
 * `oneOf` (or a multi-select's `anyOf`) of `{const, title}` options is the `enum` of their values, which is what
 * it asserts, and a string's `format` is left to the client's form (the core validator does not check formats;
 * a server with `jsonSchema: fullJsonSchema` checks the form as written, format included).
 */
export function formForCoreValidator(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = Object.entries(schema.properties as Record<string, Record<string, unknown>>);
  return { ...schema, properties: Object.fromEntries(properties.map(([name, property]) => [name, corePropertyOf(property)])) };
}
