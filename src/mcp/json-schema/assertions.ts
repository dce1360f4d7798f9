/**
 * The keywords that check one value without applying subschemas: type, const, enum, the bounds of numbers,
 * strings, arrays and objects, pattern, format, required and dependentRequired.
 */
import { FORMATS } from "./formats";
import type { Compiler, KeywordCompiler, SchemaObject, Validate } from "./types";
import { codePointLength, describeTypes, hasType, isMultipleOf, jsonEqual, shown, TYPE_NAMES } from "./values";

/** A keyword whose value must be a number (a bound), or undefined when the schema lacks it. */
export function numberKeyword(schema: SchemaObject, keyword: string, location: string, compiler: Compiler): number | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) compiler.invalid(`${location}/${keyword}`, "must be a number");
  return value;
}

function stringList(schema: SchemaObject, keyword: string, location: string, compiler: Compiler): string[] | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
    compiler.invalid(`${location}/${keyword}`, "must be an array of strings");
  return value as string[];
}

export const typeKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.type === undefined) return undefined;
  const types = typeof schema.type === "string" ? [schema.type] : schema.type;
  if (!Array.isArray(types) || !types.every((type) => typeof type === "string" && Object.hasOwn(TYPE_NAMES, type))) {
    compiler.invalid(`${location}/type`, `must be one of ${Object.keys(TYPE_NAMES).join(", ")}, or an array of them`);
  }
  const expected = types as string[];
  return (instance, at, report) => {
    for (const type of expected) if (hasType(instance, type)) return true;
    report?.push({ at, message: `must be ${describeTypes(expected)}`, expected });
    return false;
  };
};

export const constKeyword: KeywordCompiler = (schema) => {
  if (!("const" in schema)) return undefined;
  const constant = schema.const;
  return (instance, at, report) => {
    if (jsonEqual(instance, constant)) return true;
    report?.push({ at, message: `must be ${shown(constant)}` });
    return false;
  };
};

export const enumKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.enum === undefined) return undefined;
  const values = schema.enum;
  if (!Array.isArray(values)) return compiler.invalid(`${location}/enum`, "must be an array");
  return (instance, at, report) => {
    if (values.some((value) => jsonEqual(instance, value))) return true;
    report?.push({ at, message: `must be one of ${values.map(shown).join(", ")}` });
    return false;
  };
};

/** One bound on numbers: `holds(instance, bound)` or the message "must be <phrase> <bound>". */
export function numberBound(keyword: string, phrase: string, holds: (value: number, bound: number) => boolean): KeywordCompiler {
  return (schema, location, compiler) => {
    const bound = numberKeyword(schema, keyword, location, compiler);
    if (bound === undefined) return undefined;
    return (instance, at, report) => {
      if (typeof instance !== "number" || holds(instance, bound)) return true;
      report?.push({ at, message: `must be ${phrase} ${bound}` });
      return false;
    };
  };
}

export const multipleOfKeyword: KeywordCompiler = (schema, location, compiler) => {
  const divisor = numberKeyword(schema, "multipleOf", location, compiler);
  if (divisor === undefined) return undefined;
  if (divisor <= 0) compiler.invalid(`${location}/multipleOf`, "must be greater than 0");
  return (instance, at, report) => {
    if (typeof instance !== "number" || isMultipleOf(instance, divisor)) return true;
    report?.push({ at, message: `must be a multiple of ${divisor}` });
    return false;
  };
};

/**
 * A bound on the size of one JSON type: strings (in code points), arrays (items), objects (properties).
 * `atLeast`: a minimum, else a maximum.
 */
export function sizeBound(keyword: string, type: "string" | "array" | "object", atLeast: boolean): KeywordCompiler {
  const unit = { string: "characters long", array: "items", object: "properties" }[type];
  return (schema, location, compiler) => {
    const bound = numberKeyword(schema, keyword, location, compiler);
    if (bound === undefined) return undefined;
    return (instance, at, report) => {
      if (!hasType(instance, type)) return true;
      const size = sizeOf(instance, type);
      if (atLeast ? size >= bound : size <= bound) return true;
      report?.push({ at, message: `must ${type === "string" ? "be" : "have"} at ${atLeast ? "least" : "most"} ${bound} ${unit}` });
      return false;
    };
  };
}

function sizeOf(instance: unknown, type: "string" | "array" | "object"): number {
  if (type === "array") return (instance as unknown[]).length;
  if (type === "object") return Object.keys(instance as object).length;
  return codePointLength(instance as string);
}

export const patternKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.pattern === undefined) return undefined;
  const regex = compilePattern(schema.pattern, `${location}/pattern`, compiler);
  return (instance, at, report) => {
    if (typeof instance !== "string" || regex.test(instance)) return true;
    report?.push({ at, message: `must match the pattern ${shown(schema.pattern)}` });
    return false;
  };
};

/** A schema's regular expression, compiled once with the "u" flag (ECMA-262, as JSON Schema specifies). */
export function compilePattern(pattern: unknown, location: string, compiler: Compiler): RegExp {
  if (typeof pattern !== "string") compiler.invalid(location, "must be a string (a regular expression)");
  try {
    return new RegExp(pattern, "u");
  } catch (error) {
    return compiler.invalid(location, `is not a valid regular expression: ${(error as Error).message}`);
  }
}

export const formatKeyword: KeywordCompiler = (schema) => {
  const name = schema.format;
  // An unknown format is an annotation only, as JSON Schema 2020-12 says.
  const format = typeof name === "string" && Object.hasOwn(FORMATS, name) ? FORMATS[name] : undefined;
  if (!format) return undefined;
  const isValid = format instanceof RegExp ? (text: string) => format.test(text) : format;
  return (instance, at, report) => {
    if (typeof instance !== "string" || isValid(instance)) return true;
    report?.push({ at, message: `must be a valid ${name} string` });
    return false;
  };
};

export const uniqueItemsKeyword: KeywordCompiler = (schema) => {
  if (schema.uniqueItems !== true) return undefined;
  return (instance, at, report) => {
    if (!Array.isArray(instance)) return true;
    for (let i = 1; i < instance.length; i++) {
      for (let j = 0; j < i; j++) {
        if (!jsonEqual(instance[i], instance[j])) continue;
        report?.push({ at, message: `must not have duplicate items (items ${j} and ${i} are equal)` });
        return false;
      }
    }
    return true;
  };
};

/** Each `keys` the object lacks, reported as `must have required property "x"` plus `why`. */
function requireKeys(keys: readonly string[], why: string): Validate {
  return (instance, at, report) => {
    let valid = true;
    for (const key of keys) {
      if (Object.hasOwn(instance as object, key)) continue;
      valid = false;
      if (!report) return false;
      report.push({ at, message: `must have required property ${shown(key)}${why}` });
    }
    return valid;
  };
}

export const requiredKeyword: KeywordCompiler = (schema, location, compiler) => {
  const keys = stringList(schema, "required", location, compiler);
  if (!keys || keys.length === 0) return undefined;
  const check = requireKeys(keys, "");
  return (instance, at, report, evaluated) => !hasType(instance, "object") || check(instance, at, report, evaluated);
};

/** dependentRequired, and draft-07's `dependencies` where a value is an array of names (both in 2020-12 mode, as before). */
export function dependentKeys(keyword: string): KeywordCompiler {
  return (schema, location, compiler) => {
    const map = schema[keyword];
    if (typeof map !== "object" || map === null) return undefined;
    const rules = Object.entries(map)
      .filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]))
      .map(([key]) => ({
        key,
        check: requireKeys(stringList(map as SchemaObject, key, `${location}/${keyword}`, compiler)!, ` (it has ${shown(key)})`),
      }));
    if (rules.length === 0) return undefined;
    return (instance, at, report, evaluated) => {
      if (!hasType(instance, "object")) return true;
      let valid = true;
      for (const { key, check } of rules) {
        if (!Object.hasOwn(instance as object, key) || check(instance, at, report, evaluated)) continue;
        valid = false;
        if (!report) return false;
      }
      return valid;
    };
  };
}
