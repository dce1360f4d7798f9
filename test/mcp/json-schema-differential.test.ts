/**
 * mcp-edge's JSON Schema validators (src/mcp/json-schema) against @cfworker/json-schema, which validated tool
 * schemas before them and stays as the oracle. The full validator (`fullJsonSchema`) must agree on validity for
 * every hand-written pair of the corpus (each also as labelled) and for thousands of instances drawn from a
 * seeded generator. The core validator (every Worker's default) must do the same on every corpus schema that uses
 * only its vocabulary, with the full validator's very problems, and refuse every other schema at definition,
 * naming a keyword it uses.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { fullJsonSchema } from "../../src/mcp/json-schema/compile";
import { coreJsonSchema } from "../../src/mcp/json-schema/core";
import type { JsonSchemaCompiler } from "../../src/mcp/json-schema/types";
import cardSchema from "../fixtures/server-card/schema.json";
import minimalCard from "../fixtures/server-card/minimal.json";
import templatedCard from "../fixtures/server-card/templated-remote.json";
import { CORPUS, type CorpusCase } from "./json-schema-corpus";

const SERVER_CARD: CorpusCase = {
  name: "the Server Card schema (a large real one)",
  schema: { $defs: cardSchema.$defs, $ref: "#/$defs/ServerCard" },
  valid: [minimalCard, templatedCard],
  invalid: [{}, { ...minimalCard, name: 7 }],
};
const CASES = [...CORPUS, SERVER_CARD];

function oracle(schema: unknown): (instance: unknown) => boolean {
  const validator = new Validator(structuredClone(schema) as Schema, "2020-12", false);
  return (instance) => validator.validate(instance).valid;
}

function ours(schema: unknown, compile: JsonSchemaCompiler = fullJsonSchema): (instance: unknown) => boolean {
  const validate = compile(structuredClone(schema), "corpus");
  return (instance) => validate(instance).length === 0;
}

/** A case's hand-written instances, each with its label: valid or not. */
function labelled(c: CorpusCase): [instance: unknown, valid: boolean][] {
  return [
    ...c.valid.map((instance): [unknown, boolean] => [instance, true]),
    ...c.invalid.map((instance): [unknown, boolean] => [instance, false]),
  ];
}

/**
 * 150 seeded instances per case, most mutated from its labelled ones and the rest random over its vocabulary,
 * each checked by cfworker and by `compile`: the instances they disagree on, how many were checked, how many valid.
 */
function randomAgreement(cases: readonly CorpusCase[], seed: number, compile: JsonSchemaCompiler) {
  const random = seeded(seed);
  const disagreements: string[] = [];
  let checks = 0;
  let valid = 0;
  for (const c of cases) {
    const [expected, actual] = [oracle(c.schema), ours(c.schema, compile)];
    const words = vocabulary(c);
    const seeds = [...c.valid, ...c.invalid];
    for (let i = 0; i < 150; i++) {
      const from = seeds.length > 0 && random() < 0.7 ? seeds[Math.floor(random() * seeds.length)] : undefined;
      const instance = from === undefined ? randomValue(random, words, 3) : mutate(from, random, words);
      const [theirs, mine] = [expected(instance), actual(instance)];
      checks++;
      if (mine) valid++;
      if (theirs !== mine) disagreements.push(`${c.name}: ${JSON.stringify(instance)} cfworker ${theirs}, ours ${mine}`);
    }
  }
  return { disagreements, checks, valid };
}

/** The keywords outside the core vocabulary (docs/server.md "Raw JSON Schema validation"), written here on their own. */
const BEYOND_CORE = new Set([
  ...["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$dynamicRef", "$defs", "definitions", "$id", "$anchor"],
  ...["$dynamicAnchor", "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies"],
  ...["prefixItems", "additionalItems", "contains", "unevaluatedProperties", "unevaluatedItems", "format"],
]);

/** The keywords beyond the core that a schema uses, found where the core reads subschemas (a tuple `items` counts). */
function beyondCore(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const rules = schema as Record<string, unknown>;
  const found = Object.keys(rules).filter((keyword) => BEYOND_CORE.has(keyword));
  if (Array.isArray(rules.items)) found.push("items");
  const subschemas = [...Object.values((rules.properties as object) ?? {}), rules.additionalProperties, rules.items];
  return [...found, ...subschemas.filter((sub) => !Array.isArray(sub)).flatMap(beyondCore)];
}

const CORE_CASES = CASES.filter((c) => beyondCore(c.schema).length === 0);
const FULL_CASES = CASES.filter((c) => beyondCore(c.schema).length > 0);

/** mulberry32: a small seeded generator, so a failure reproduces. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRIMITIVES: unknown[] = [0, 1, 2, 3, -1, 1.5, 0.01, 0.3, 10, 11, 50, 1e20, "", "a", "ab", "abc", "A", "😀", "x y", null, true, false];
const KEYS = ["a", "b", "c", "x", "extra", "__proto__"];

/** The primitive values and object keys a case's schema and instances mention: what random instances are made of. */
function vocabulary(c: CorpusCase): { values: unknown[]; keys: string[] } {
  const values = new Set<unknown>(PRIMITIVES);
  const keys = new Set<string>(KEYS);
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        keys.add(key);
        visit(value);
      }
    } else values.add(node);
  };
  visit(c.schema);
  for (const instance of [...c.valid, ...c.invalid]) visit(instance);
  return { values: [...values], keys: [...keys] };
}

function randomValue(random: () => number, words: { values: unknown[]; keys: string[] }, depth: number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const roll = random();
  if (depth <= 0 || roll < 0.6) return pick(words.values);
  const size = Math.floor(random() * 4);
  if (roll < 0.8) return Array.from({ length: size }, () => randomValue(random, words, depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < size; i++)
    Object.defineProperty(object, pick(words.keys), {
      value: randomValue(random, words, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return object;
}

/** One change somewhere inside `value`: a member replaced, added or removed. */
function mutate(value: unknown, random: () => number, words: { values: unknown[]; keys: string[] }): unknown {
  if (typeof value !== "object" || value === null || random() < 0.2) return randomValue(random, words, 2);
  if (Array.isArray(value)) {
    const copy = [...value];
    const at = Math.floor(random() * (copy.length + 1));
    const roll = random();
    if (roll < 0.3 && copy.length > 0) copy.splice(at, 1);
    else if (roll < 0.6 || at === copy.length) copy.splice(at, 0, randomValue(random, words, 2));
    else copy[at] = mutate(copy[at], random, words);
    return copy;
  }
  const copy: Record<string, unknown> = { ...value };
  const keys = Object.keys(copy);
  const roll = random();
  const key =
    roll < 0.4 || keys.length === 0 ? words.keys[Math.floor(random() * words.keys.length)]! : keys[Math.floor(random() * keys.length)]!;
  if (roll > 0.85) delete copy[key];
  else Object.defineProperty(copy, key, { value: mutate(copy[key], random, words), enumerable: true, writable: true, configurable: true });
  return copy;
}

describe("mcp-edge's full JSON Schema validator agrees with @cfworker/json-schema", () => {
  it("on every hand-written pair of the corpus, each as labelled", () => {
    const disagreements: string[] = [];
    let pairs = 0;
    for (const c of CASES) {
      const [expected, actual] = [oracle(c.schema), ours(c.schema)];
      for (const [instance, label] of labelled(c)) {
        pairs++;
        const [theirs, mine] = [expected(instance), actual(instance)];
        if (theirs !== label || mine !== label)
          disagreements.push(`${c.name}: ${JSON.stringify(instance)} labelled ${label}, cfworker ${theirs}, ours ${mine}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(pairs).toBeGreaterThan(400);
  });

  it("on thousands of seeded random instances of the corpus's schemas", () => {
    const { disagreements, checks, valid } = randomAgreement(CASES, 0x5eed, fullJsonSchema);
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(checks).toBeGreaterThan(10_000);
    // Both outcomes are well represented, or the agreement would say little.
    expect(valid / checks).toBeGreaterThan(0.2);
    expect(valid / checks).toBeLessThan(0.8);
  });
});

describe("mcp-edge's core JSON Schema validator", () => {
  it("agrees with @cfworker/json-schema on every pair whose schema uses only the core vocabulary, with the full validator's problems", () => {
    const disagreements: string[] = [];
    let pairs = 0;
    for (const c of CORE_CASES) {
      const [expected, core, full] = [
        oracle(c.schema),
        coreJsonSchema(structuredClone(c.schema), "corpus"),
        fullJsonSchema(c.schema, "corpus"),
      ];
      for (const [instance, label] of labelled(c)) {
        pairs++;
        const [theirs, problems] = [expected(instance), core(instance)];
        if (theirs !== label || (problems.length === 0) !== label)
          disagreements.push(`${c.name}: ${JSON.stringify(instance)} labelled ${label}, cfworker ${theirs}, core ${problems.length === 0}`);
        expect(problems, `${c.name}: ${JSON.stringify(instance)}`).toEqual(full(instance).map(({ at, message }) => ({ at, message })));
      }
    }
    expect(disagreements).toEqual([]);
    expect(pairs).toBeGreaterThan(150);
  });

  it("agrees with @cfworker/json-schema on seeded random instances of the core schemas", () => {
    const { disagreements, checks } = randomAgreement(CORE_CASES, 0xc0de, coreJsonSchema);
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(checks).toBeGreaterThan(5_000);
  });

  it("refuses at definition every corpus schema beyond its vocabulary, naming a keyword it uses and the fix", () => {
    const wrong: string[] = [];
    for (const c of FULL_CASES) {
      const keywords = beyondCore(c.schema);
      try {
        coreJsonSchema(structuredClone(c.schema), 'tool "t" input');
        wrong.push(`${c.name}: accepted (it uses ${keywords.join(", ")})`);
      } catch (error) {
        const message = (error as Error).message;
        const named = keywords.some((keyword) => message.includes(`"${keyword}"`));
        if (!(error instanceof TypeError) || !named || !message.includes("jsonSchema: fullJsonSchema")) wrong.push(`${c.name}: ${message}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(FULL_CASES.length).toBeGreaterThan(50);
  });
});
