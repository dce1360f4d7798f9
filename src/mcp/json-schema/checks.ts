/**
 * What the core and the full validator share around their keyword checks: the boolean schemas, running a
 * schema object's checks, and turning the compiled root into the validator a definition calls.
 */
import type { Compiler, JsonSchemaProblem, JsonSchemaValidator, KeywordCompiler, Problem, SchemaObject, Validate } from "./types";

/** The schema `true`, and `{}`: every instance is valid. */
export const ACCEPT: Validate = () => true;

/** The schema `false`: no instance is valid. */
export const REJECT: Validate = (_instance, at, report) => {
  report?.push({ at, message: "is not allowed" });
  return false;
};

/** The checks `keywords` make of one schema object, run in order; with a report, every failing one reports. */
export function allChecks(keywords: readonly KeywordCompiler[], schema: SchemaObject, location: string, compiler: Compiler): Validate {
  const checks = keywords.map((keyword) => keyword(schema, location, compiler)).filter((check) => check !== undefined);
  if (checks.length === 0) return ACCEPT;
  if (checks.length === 1) return checks[0]!;
  return (instance, at, report, evaluated) => {
    let valid = true;
    for (const check of checks) {
      if (check(instance, at, report, evaluated)) continue;
      valid = false;
      if (!report) return false;
    }
    return valid;
  };
}

const VALID: readonly JsonSchemaProblem[] = Object.freeze([]);

/** The validator of a compiled root schema: an empty list when the instance is valid, else its problems. */
export function validatorOf(validate: Validate): JsonSchemaValidator {
  return (instance) => {
    // A valid instance takes one walk that stops at the first problem; only an invalid one is walked again to explain.
    if (validate(instance, "", undefined, undefined)) return VALID;
    const problems: Problem[] = [];
    validate(instance, "", problems, undefined);
    return problems;
  };
}
