/**
 * The keywords that apply subschemas: to an object's properties and an array's items (recording what they
 * evaluated, for unevaluated*), and in place (allOf, anyOf, oneOf, not, if/then/else, $ref, dependentSchemas).
 */
import { compilePattern, numberKeyword } from "./assertions";
import type { Compiler, Evaluated, KeywordCompiler, Problem, Report, SchemaObject, Validate } from "./types";
import { childAt, describeTypes, hasType, shown } from "./values";

type Subschemas = readonly Validate[];

// The lists of subschemas that apply to the instance itself rather than to its members.
const IN_PLACE = new Set(["allOf", "anyOf", "oneOf"]);

function schemaList(schema: SchemaObject, keyword: string, location: string, compiler: Compiler): Subschemas | undefined {
  const list = schema[keyword];
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length === 0) compiler.invalid(`${location}/${keyword}`, "must be a non-empty array of schemas");
  return list.map((item, i) => compiler.subschema(item, `${location}/${keyword}/${i}`, IN_PLACE.has(keyword)));
}

function schemaMap(schema: SchemaObject, keyword: string, location: string, compiler: Compiler): [string, Validate][] {
  const map = schema[keyword];
  if (map === undefined) return [];
  if (typeof map !== "object" || map === null || Array.isArray(map))
    compiler.invalid(`${location}/${keyword}`, "must be an object of schemas");
  return Object.entries(map).map(([key, sub]) => [key, compiler.subschema(sub, `${location}/${keyword}/${key}`)]);
}

function merge(into: Evaluated, from: Evaluated): void {
  if (into && from) for (const key of from) into.add(key);
}

/** Applies a schema to one member (an object's property or an array's item) of an instance. */
type MemberCheck = (value: unknown, key: string | number, at: string, report: Report) => boolean;

/**
 * The check of additionalProperties or unevaluatedProperties/Items. For properties, `false` names the property
 * on its object ("must not have property \"x\""), which reads better than "/x: is not allowed".
 */
function memberSchema(schema: SchemaObject, keyword: string, location: string, compiler: Compiler): MemberCheck | undefined {
  if (schema[keyword] === undefined) return undefined;
  if (schema[keyword] === false && keyword.endsWith("Properties")) {
    const what = keyword === "additionalProperties" ? "property" : "unevaluated property";
    return (_value, key, at, report) => {
      report?.push({ at, message: `must not have ${what} ${shown(key)}` });
      return false;
    };
  }
  const validate = compiler.subschema(schema[keyword], `${location}/${keyword}`);
  return (value, key, at, report) => validate(value, childAt(at, key, report), report, undefined);
}

/** properties, patternProperties and additionalProperties: together they decide which schema each member meets. */
export const propertiesKeyword: KeywordCompiler = (schema, location, compiler) => {
  const properties = schemaMap(schema, "properties", location, compiler);
  const patterns = schemaMap(schema, "patternProperties", location, compiler).map(([source, validate]) => ({
    regex: compilePattern(source, `${location}/patternProperties/${source}`, compiler),
    validate,
  }));
  const additional = memberSchema(schema, "additionalProperties", location, compiler);
  if (properties.length === 0 && patterns.length === 0 && !additional) return undefined;
  const named = new Set(properties.map(([key]) => key));
  return (instance, at, report, evaluated) => {
    if (!hasType(instance, "object")) return true;
    const object = instance as SchemaObject;
    let valid = true;
    for (const [key, validate] of properties) {
      if (!Object.hasOwn(object, key)) continue;
      evaluated?.add(key);
      if (validate(object[key], childAt(at, key, report), report, undefined)) continue;
      valid = false;
      if (!report) return false;
    }
    if (patterns.length === 0 && !additional) return valid;
    for (const key of Object.keys(object)) {
      let matched = named.has(key);
      for (const { regex, validate } of patterns) {
        if (!regex.test(key)) continue;
        matched = true;
        evaluated?.add(key);
        if (validate(object[key], childAt(at, key, report), report, undefined)) continue;
        valid = false;
        if (!report) return false;
      }
      if (matched || !additional) continue;
      evaluated?.add(key);
      if (additional(object[key], key, at, report)) continue;
      valid = false;
      if (!report) return false;
    }
    return valid;
  };
};

export const propertyNamesKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.propertyNames === undefined) return undefined;
  const validate = compiler.subschema(schema.propertyNames, `${location}/propertyNames`);
  return (instance, at, report) => {
    if (!hasType(instance, "object")) return true;
    let valid = true;
    for (const key of Object.keys(instance as object)) {
      const problems: Report = report && [];
      if (validate(key, childAt(at, key, report), problems, undefined)) continue;
      valid = false;
      if (!report) return false;
      for (const problem of problems!) report.push({ at: problem.at, message: `is not an allowed property name: it ${problem.message}` });
    }
    return valid;
  };
};

/** dependentSchemas, and draft-07's `dependencies` where a value is a schema (annotations from those are not kept, as before). */
export function dependentSchemas(keyword: string): KeywordCompiler {
  return (schema, location, compiler) => {
    const map = schema[keyword];
    if (typeof map !== "object" || map === null) return undefined;
    const entries = Object.entries(map).filter(([, sub]) => !Array.isArray(sub));
    const rules = entries.map(([key, sub]) => ({ key, validate: compiler.subschema(sub, `${location}/${keyword}/${key}`, true) }));
    const keepsAnnotations = keyword === "dependentSchemas";
    if (rules.length === 0) return undefined;
    return (instance, at, report, evaluated) => {
      if (!hasType(instance, "object")) return true;
      let valid = true;
      for (const { key, validate } of rules) {
        if (!Object.hasOwn(instance as object, key) || validate(instance, at, report, keepsAnnotations ? evaluated : undefined)) continue;
        valid = false;
        if (!report) return false;
      }
      return valid;
    };
  };
}

/**
 * prefixItems, items and additionalItems. Draft-07's forms keep their meaning: `items` as an array is a tuple
 * (continuing prefixItems by index), and additionalItems then applies to the rest.
 */
export const itemsKeyword: KeywordCompiler = (schema, location, compiler) => {
  const prefix = schemaList(schema, "prefixItems", location, compiler) ?? [];
  const tupleItems = Array.isArray(schema.items) ? schemaList(schema, "items", location, compiler)! : undefined;
  const tuple = tupleItems ? [...prefix, ...tupleItems.slice(prefix.length)] : prefix;
  let rest: Validate | undefined;
  if (schema.items !== undefined && !tupleItems) rest = compiler.subschema(schema.items, `${location}/items`);
  else if (tupleItems && schema.additionalItems !== undefined)
    rest = compiler.subschema(schema.additionalItems, `${location}/additionalItems`);
  if (tuple.length === 0 && !rest) return undefined;
  return (instance, at, report, evaluated) => {
    if (!Array.isArray(instance)) return true;
    let valid = true;
    for (let i = 0; i < instance.length; i++) {
      const validate = i < tuple.length ? tuple[i] : rest;
      if (!validate) break;
      evaluated?.add(i);
      if (validate(instance[i], childAt(at, i, report), report, undefined)) continue;
      valid = false;
      if (!report) return false;
    }
    return valid;
  };
};

export const containsKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.contains === undefined) return undefined;
  const validate = compiler.subschema(schema.contains, `${location}/contains`);
  const least = numberKeyword(schema, "minContains", location, compiler) ?? 1;
  const most = numberKeyword(schema, "maxContains", location, compiler) ?? Number.POSITIVE_INFINITY;
  return (instance, at, report, evaluated) => {
    if (!Array.isArray(instance)) return true;
    let matches = 0;
    for (let i = 0; i < instance.length; i++) {
      if (!validate(instance[i], at, undefined, undefined)) continue;
      matches++;
      evaluated?.add(i);
    }
    if (matches >= least && matches <= most) return true;
    const bound = matches < least ? `at least ${least}` : `at most ${most}`;
    report?.push({
      at,
      message: `must contain ${bound} item${(matches < least ? least : most) === 1 ? "" : "s"} matching "contains" (it has ${matches})`,
    });
    return false;
  };
};

export const allOfKeyword: KeywordCompiler = (schema, location, compiler) => {
  const branches = schemaList(schema, "allOf", location, compiler);
  if (!branches) return undefined;
  return (instance, at, report, evaluated) => {
    let valid = true;
    for (const branch of branches) {
      if (branch(instance, at, report, evaluated)) continue;
      valid = false;
      if (!report) return false;
    }
    return valid;
  };
};

/** A branch's problems as one phrase relative to `at`: `kind must be "circle" and must have required property "r"`. */
function describeBranch(problems: readonly Problem[], at: string): string {
  return problems.map((problem) => (problem.at === at ? "" : `${problem.at.slice(at.length + 1)} `) + problem.message).join(" and ");
}

/**
 * Why no branch of anyOf/oneOf matched. Branches that failed only on their type say together what types would
 * do ("must be a string or null"); one branch of the right type gives its own problems; several, the choice.
 */
function noBranchMatched(failures: readonly Problem[][], at: string): Problem[] {
  const wrongType = (problems: Problem[]) => problems.length === 1 && problems[0]!.expected !== undefined && problems[0]!.at === at;
  const relevant = failures.filter((problems) => !wrongType(problems));
  if (relevant.length === 1) return relevant[0]!;
  if (relevant.length > 1) return [{ at, message: relevant.map((problems) => describeBranch(problems, at)).join(", or ") }];
  const expected = [...new Set(failures.flatMap((problems) => problems[0]!.expected!))];
  return [{ at, message: `must be ${describeTypes(expected)}`, expected }];
}

/** anyOf or oneOf: how many branches match, stopping early when nothing more is to learn. */
export function someOf(keyword: "anyOf" | "oneOf"): KeywordCompiler {
  return (schema, location, compiler) => {
    const branches = schemaList(schema, keyword, location, compiler);
    if (!branches) return undefined;
    const enough = keyword === "anyOf" ? 1 : 2;
    return (instance, at, report, evaluated) => {
      let matches = 0;
      const failures: Problem[][] = [];
      for (const branch of branches) {
        const problems: Report = report && [];
        const own: Evaluated = evaluated && new Set();
        if (!branch(instance, at, problems, own)) {
          if (problems) failures.push(problems);
          continue;
        }
        matches++;
        if (keyword === "anyOf" || matches === 1) merge(evaluated, own);
        // anyOf: every branch that matches adds what it evaluated, so only a caller that records nothing may stop.
        if (matches >= enough && !(keyword === "anyOf" && evaluated)) break;
      }
      if (matches === 1 || (matches > 1 && keyword === "anyOf")) return true;
      if (matches === 0) report?.push(...noBranchMatched(failures, at));
      else report?.push({ at, message: `must match exactly one schema of "oneOf", but matches more than one` });
      return false;
    };
  };
}

export const notKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.not === undefined) return undefined;
  const validate = compiler.subschema(schema.not, `${location}/not`, true);
  return (instance, at, report) => {
    if (!validate(instance, at, undefined, undefined)) return true;
    report?.push({ at, message: `must not match the schema in "not"` });
    return false;
  };
};

export const ifKeyword: KeywordCompiler = (schema, location, compiler) => {
  if (schema.if === undefined || (schema.then === undefined && schema.else === undefined)) return undefined;
  const condition = compiler.subschema(schema.if, `${location}/if`, true);
  const then = schema.then === undefined ? undefined : compiler.subschema(schema.then, `${location}/then`, true);
  const otherwise = schema.else === undefined ? undefined : compiler.subschema(schema.else, `${location}/else`, true);
  return (instance, at, report, evaluated) => {
    const own: Evaluated = evaluated && new Set();
    const holds = condition(instance, at, undefined, own);
    if (holds) merge(evaluated, own);
    const branch = holds ? then : otherwise;
    return !branch || branch(instance, at, report, evaluated);
  };
};

export function referenceKeyword(keyword: "$ref" | "$dynamicRef"): KeywordCompiler {
  return (schema, location, compiler) => (schema[keyword] === undefined ? undefined : compiler.reference(keyword, schema, location));
}

/** unevaluatedProperties or unevaluatedItems: applies to what the other keywords (and in-place subschemas) left. */
export function unevaluated(keyword: "unevaluatedProperties" | "unevaluatedItems"): KeywordCompiler {
  return (schema, location, compiler) => {
    const validate = memberSchema(schema, keyword, location, compiler);
    if (!validate) return undefined;
    const type = keyword === "unevaluatedItems" ? "array" : "object";
    return (instance, at, report, evaluated) => {
      if (!hasType(instance, type)) return true;
      const keys = type === "array" ? (instance as unknown[]).keys() : Object.keys(instance as object);
      const members = instance as Record<string | number, unknown>;
      let valid = true;
      for (const key of keys) {
        if (evaluated!.has(key)) continue;
        evaluated!.add(key);
        if (validate(members[key], key, at, report)) continue;
        valid = false;
        if (!report) return false;
      }
      return valid;
    };
  };
}

/** Whether a schema object needs to know what its keywords evaluated. */
export function tracksEvaluation(schema: SchemaObject): boolean {
  return schema.unevaluatedProperties !== undefined || schema.unevaluatedItems !== undefined;
}
