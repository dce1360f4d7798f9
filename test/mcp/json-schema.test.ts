/**
 * mcp-edge's JSON Schema validators as a tool author meets them, through compileSchema (what tools/call reports).
 * The full one (`jsonSchema: fullJsonSchema`): the wording of its problems, unevaluated*, recursive $refs, lengths
 * in code points, integers and decimal multiples, the TypeErrors of schemas it cannot use, and where it deliberately
 * differs from @cfworker/json-schema. The core one (the default): the same wording, and the TypeError at definition
 * of a keyword beyond its vocabulary.
 */
import { describe, expect, it } from "vitest";
import { compileSchema, type SchemaCompilers } from "../../src/mcp/definition/schema";
import { fullJsonSchema } from "../../src/mcp/json-schema/compile";

const FULL: SchemaCompilers = { jsonSchema: fullJsonSchema };

function check(schema: Record<string, unknown>, value: unknown, compilers: SchemaCompilers = FULL): string | true {
  const result = compileSchema(schema, "input", 'tool "t" input', compilers).validate(value);
  if (result instanceof Promise) throw new Error("a raw JSON Schema validates synchronously");
  return result.ok ? true : result.message;
}

function definitionError(schema: Record<string, unknown>, compilers: SchemaCompilers = FULL): string {
  try {
    compileSchema(schema, "input", 'tool "t" input', compilers);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error("the schema compiled");
}

describe("problems, phrased for a person at the instance location", () => {
  const search = {
    type: "object",
    properties: { text: { type: "string" }, count: { type: "integer", maximum: 10 } },
    required: ["text"],
    additionalProperties: false,
  };

  it("names a missing property and a number out of bounds, one leaf each", () => {
    expect(check(search, { count: 11 })).toBe('/: must have required property "text"; /count: must be at most 10');
  });

  it("names the type expected, with its article", () => {
    expect(check(search, { text: 5 })).toBe("/text: must be a string");
    expect(check(search, { text: "a", count: 2.5 })).toBe("/count: must be an integer");
    expect(check(search, [])).toBe("/: must be an object");
  });

  it("names a property additionalProperties: false refuses, on its object", () => {
    expect(check(search, { text: "a", extra: 1 })).toBe('/: must not have property "extra"');
  });

  it("reports at most five problems", () => {
    const many = { type: "object", additionalProperties: false };
    expect(check(many, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 })).toBe(
      '/: must not have property "a"; /: must not have property "b"; /: must not have property "c"; /: must not have property "d"; /: must not have property "e"',
    );
  });

  it("escapes a key with / or ~ in the location (a JSON pointer)", () => {
    expect(check({ properties: { "a/b~": { type: "number" } } }, { "a/b~": "x" })).toBe("/a~1b~0: must be a number");
  });

  it("says what the other keywords want", () => {
    expect(check({ enum: ["low", "high"] }, "mid")).toBe('/: must be one of "low", "high"');
    expect(check({ const: "on" }, "off")).toBe('/: must be "on"');
    expect(check({ minLength: 3 }, "ab")).toBe("/: must be at least 3 characters long");
    expect(check({ pattern: "^[a-z]+$" }, "A")).toBe('/: must match the pattern "^[a-z]+$"');
    expect(check({ format: "date" }, "2023-02-29")).toBe("/: must be a valid date string");
    expect(check({ exclusiveMinimum: 0 }, 0)).toBe("/: must be greater than 0");
    expect(check({ exclusiveMaximum: 1 }, 1)).toBe("/: must be less than 1");
    expect(check({ minItems: 2 }, [1])).toBe("/: must have at least 2 items");
    expect(check({ maxProperties: 1 }, { a: 1, b: 2 })).toBe("/: must have at most 1 properties");
    expect(check({ uniqueItems: true }, [1, { a: 1 }, { a: 1 }])).toBe("/: must not have duplicate items (items 1 and 2 are equal)");
    expect(check({ contains: { type: "string" }, minContains: 2 }, ["a", 1])).toBe(
      '/: must contain at least 2 items matching "contains" (it has 1)',
    );
    expect(check({ dependentRequired: { card: ["cvc"] } }, { card: 1 })).toBe('/: must have required property "cvc" (it has "card")');
    expect(check({ propertyNames: { maxLength: 2 } }, { abc: 1 })).toBe(
      "/abc: is not an allowed property name: it must be at most 2 characters long",
    );
    expect(check({ not: { type: "null" } }, null)).toBe('/: must not match the schema in "not"');
    expect(check({ prefixItems: [true], items: false }, [1, 2])).toBe("/1: is not allowed");
  });

  it("says which types anyOf allows when every branch is of another type", () => {
    expect(check({ properties: { since: { anyOf: [{ type: "string" }, { type: "null" }] } } }, { since: 1 })).toBe(
      "/since: must be a string or null",
    );
    expect(check({ oneOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] }, 1.5)).toBe(
      "/: must be a string, an integer or a boolean",
    );
  });

  it("gives the one branch of the right type its own problems, and several as a choice", () => {
    expect(check({ anyOf: [{ type: "string", maxLength: 2 }, { type: "null" }] }, "abc")).toBe("/: must be at most 2 characters long");
    const shapes = {
      oneOf: [
        { properties: { kind: { const: "circle" } }, required: ["kind", "r"] },
        { properties: { kind: { const: "square" } }, required: ["kind", "side"] },
      ],
    };
    expect(check(shapes, { kind: "triangle" })).toBe(
      '/: must have required property "r" and kind must be "circle", or must have required property "side" and kind must be "square"',
    );
    expect(check({ oneOf: [{ minimum: 0 }, { multipleOf: 2 }] }, 4)).toBe(
      '/: must match exactly one schema of "oneOf", but matches more than one',
    );
  });

  it("reports what then or else requires", () => {
    const schema = { if: { properties: { country: { const: "US" } }, required: ["country"] }, then: { required: ["zip"] } };
    expect(check(schema, { country: "US" })).toBe('/: must have required property "zip"');
    expect(check(schema, { country: "FR" })).toBe(true);
  });
});

describe("unevaluatedProperties and unevaluatedItems", () => {
  it("count what allOf, anyOf, oneOf, if/then/else, $ref and dependentSchemas evaluated", () => {
    const schema = {
      $defs: { id: { properties: { id: { type: "integer" } } } },
      $ref: "#/$defs/id",
      allOf: [{ properties: { name: { type: "string" } } }],
      anyOf: [
        { properties: { a: true }, required: ["a"] },
        { properties: { b: true }, required: ["b"] },
      ],
      if: { properties: { kind: { const: "x" } }, required: ["kind"] },
      then: { properties: { x: true } },
      dependentSchemas: { name: { properties: { nick: true } } },
      unevaluatedProperties: false,
    };
    expect(check(schema, { id: 1, name: "n", nick: "m", a: 1, b: 2, kind: "x", x: 0 })).toBe(true);
    expect(check(schema, { a: 1, nick: "m" })).toBe('/: must not have unevaluated property "nick"');
    // then applies only when if holds; if's own properties count only then too.
    expect(check(schema, { a: 1, kind: "y", x: 0 })).toBe(
      '/: must not have unevaluated property "kind"; /: must not have unevaluated property "x"',
    );
  });

  it("do not count what a failed anyOf branch or a not evaluated", () => {
    const schema = {
      anyOf: [{ properties: { a: { type: "string" } } }, { properties: { b: true } }],
      not: { required: ["z"] },
      unevaluatedProperties: false,
    };
    expect(check(schema, { a: 1, b: 1 })).toBe('/: must not have unevaluated property "a"');
  });

  it("apply their own schema to the rest, and items after prefixItems and contains", () => {
    expect(check({ properties: { a: true }, unevaluatedProperties: { type: "number" } }, { a: "x", b: "y" })).toBe("/b: must be a number");
    const items = { prefixItems: [{ type: "string" }], contains: { const: true }, unevaluatedItems: { type: "number" } };
    expect(check(items, ["a", true, 2, true])).toBe(true);
    expect(check(items, ["a", true, "b"])).toBe("/2: must be a number");
  });

  it("see only their own schema's keywords, not a sibling $ref's (JSON Schema 2020-12; @cfworker/json-schema let those through)", () => {
    const schema = { $defs: { a: { properties: { x: true } } }, $ref: "#/$defs/a", allOf: [{ unevaluatedProperties: false }] };
    expect(check(schema, { x: 1 })).toBe('/: must not have unevaluated property "x"');
  });
});

describe("$ref", () => {
  const tree = {
    $defs: {
      node: {
        type: "object",
        properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        required: ["value"],
      },
    },
    $ref: "#/$defs/node",
  };

  it("follows a recursive tree schema to any depth and reports the deep location", () => {
    let deep: Record<string, unknown> = { value: 0 };
    for (let i = 1; i < 200; i++) deep = { value: i, children: [deep] };
    expect(check(tree, deep)).toBe(true);
    expect(check(tree, { value: 1, children: [{ value: 2 }, { value: 3, children: [{ value: "4" }] }] })).toBe(
      "/children/1/children/0/value: must be a number",
    );
  });

  it("resolves #, percent- and ~-escaped pointers, $anchor and $id-relative references", () => {
    expect(check({ type: ["integer", "array"], items: { $ref: "#" } }, [1, [2, ["x"]]])).toBe("/1/1/0: must be an integer or an array");
    const escaped = {
      $defs: { "a/b": { type: "string" }, "c d": { type: "number" } },
      properties: { x: { $ref: "#/$defs/a~1b" }, y: { $ref: "#/$defs/c%20d" } },
    };
    expect(check(escaped, { x: 1, y: "1" })).toBe("/x: must be a string; /y: must be a number");
    expect(check({ $defs: { w: { $anchor: "word", pattern: "^\\w+$" } }, $ref: "#word" }, "a b")).toBe(
      '/: must match the pattern "^\\\\w+$"',
    );
    const ids = { $id: "https://example.com/root", properties: { m: { $ref: "money" } }, $defs: { m: { $id: "money", minimum: 0 } } };
    expect(check(ids, { m: -1 })).toBe("/m: must be at least 0");
  });

  it("reads draft-07's definitions", () => {
    expect(check({ definitions: { s: { type: "string" } }, items: { $ref: "#/definitions/s" } }, [1])).toBe("/0: must be a string");
  });
});

describe("values", () => {
  it("counts string lengths in Unicode code points, not UTF-16 units", () => {
    expect(check({ maxLength: 2 }, "😀😀")).toBe(true);
    expect(check({ maxLength: 2 }, "😀😀😀")).toBe("/: must be at most 2 characters long");
    expect(check({ minLength: 2 }, "😀")).toBe("/: must be at least 2 characters long");
    expect(check({ minLength: 3, maxLength: 3 }, "e\u0301é")).toBe(true);
  });

  it("takes 1.0 as an integer", () => {
    expect(check({ type: "integer" }, 1.0)).toBe(true);
    expect(check({ type: "integer" }, JSON.parse("1.0"))).toBe(true);
    expect(check({ type: "integer" }, 1.000001)).toBe("/: must be an integer");
  });

  it("checks multipleOf 0.01 on the decimals as written, not in binary floating point", () => {
    for (const price of [19.99, 0.07, 1.1, 0.3, 100]) expect(check({ multipleOf: 0.01 }, price)).toBe(true);
    expect(check({ multipleOf: 0.01 }, 1.005)).toBe("/: must be a multiple of 0.01");
    expect(check({ multipleOf: 0.01 }, 0.1 + 0.2)).toBe("/: must be a multiple of 0.01");
  });

  it("compares const and enum deeply, whatever the key order", () => {
    expect(check({ const: { a: 1, b: [1, { c: 2 }] } }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(check({ enum: [{ a: 1 }] }, { a: 1, b: 2 })).toBe('/: must be one of {"a":1}');
  });
});

describe("schemas the validator cannot use fail at definition, naming the keyword and its location", () => {
  it("a pattern that does not compile", () => {
    expect(definitionError({ properties: { a: { pattern: "(" } } })).toMatch(
      /^tool "t" input: the JSON Schema's #\/properties\/a\/pattern is not a valid regular expression: /,
    );
    expect(definitionError({ patternProperties: { "[": true } })).toMatch(/#\/patternProperties\/\[ is not a valid regular expression/);
  });

  it("a $ref outside the document, or to nothing in it", () => {
    expect(definitionError({ $ref: "https://example.com/schema.json" })).toBe(
      'tool "t" input: the JSON Schema\'s #/$ref "https://example.com/schema.json" points outside the schema (remote references are not fetched)',
    );
    expect(definitionError({ items: { $ref: "#/$defs/missing" } })).toBe(
      'tool "t" input: the JSON Schema\'s #/items/$ref "#/$defs/missing" names nothing in the schema',
    );
  });

  it("a $dynamicRef whose anchor has a dynamic scope", () => {
    const dynamic = {
      $id: "https://example.com/list",
      $defs: { item: { $dynamicAnchor: "item" }, strings: { $id: "strings", $dynamicAnchor: "item", type: "string" } },
      items: { $dynamicRef: "#item" },
    };
    expect(definitionError(dynamic)).toMatch(/#\/items\/\$dynamicRef "#item" needs a dynamic scope/);
  });

  it("a schema that loops on the same value", () => {
    expect(definitionError({ $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" })).toMatch(
      /leads back to itself without going into a property or an item/,
    );
  });

  it("a keyword of the wrong type", () => {
    expect(definitionError({ properties: { n: { minimum: "1" } } })).toBe(
      'tool "t" input: the JSON Schema\'s #/properties/n/minimum must be a number',
    );
    expect(definitionError({ type: "text" })).toMatch(/#\/type must be one of string, number, integer, boolean, object, array, null/);
    expect(definitionError({ type: ["string", "constructor"] })).toMatch(/#\/type must be one of/);
    expect(definitionError({ required: "a" })).toMatch(/#\/required must be an array of strings/);
    expect(definitionError({ items: 3 })).toMatch(/#\/items must be a schema/);
  });
});

describe("where mcp-edge's validator differs from @cfworker/json-schema", () => {
  it("a $dynamicRef to an anchor of one resource works as a $ref (cfworker ignored $dynamicRef)", () => {
    expect(check({ $defs: { s: { $dynamicAnchor: "s", type: "string" } }, items: { $dynamicRef: "#s" } }, [1])).toBe(
      "/0: must be a string",
    );
  });

  it("ipv4 refuses leading zeros, and email quoted local parts (RFC 3986 and a dot-atom; cfworker took both)", () => {
    expect(check({ format: "ipv4" }, "01.2.3.4")).toBe("/: must be a valid ipv4 string");
    expect(check({ format: "email" }, '"a b"@example.com')).toBe("/: must be a valid email string");
  });
});

describe("the core validator (no jsonSchema option)", () => {
  const CORE: SchemaCompilers = {};
  const order = {
    type: "object",
    properties: {
      text: { type: "string" },
      count: { type: "integer", minimum: 1, maximum: 10 },
      note: { type: "string", maxLength: 3, pattern: "^[a-z]*$" },
      tags: { type: "array", items: { enum: ["a", "b"] }, uniqueItems: true },
    },
    required: ["text"],
    additionalProperties: false,
  };

  it("reports as the full validator does, up to five problems joined with '; '", () => {
    const value = { count: 11.5, note: "ABCD", tags: ["a", "c", "a"], extra: 1 };
    const expected =
      '/: must have required property "text"; /count: must be an integer; /count: must be at most 10; ' +
      '/note: must be at most 3 characters long; /note: must match the pattern "^[a-z]*$"';
    expect(check(order, value, CORE)).toBe(expected);
    expect(check(order, value)).toBe(expected);
    expect(check(order, { text: "x", count: 2.0, tags: ["a", "b"] }, CORE)).toBe(true);
    expect(check({ type: "object", additionalProperties: false }, { x: 1 }, CORE)).toBe('/: must not have property "x"');
  });

  it("refuses a keyword beyond its vocabulary at definition, naming the keyword, where it is, the tool and the fix", () => {
    const schema = { type: "object", properties: { contact: { anyOf: [{ type: "string" }, { type: "null" }] } } };
    expect(definitionError(schema, CORE)).toBe(
      'tool "t" input: the JSON Schema\'s #/properties/contact/anyOf needs the full JSON Schema validator ("anyOf" is not in the core ' +
        'vocabulary): pass jsonSchema: fullJsonSchema (from "mcp-edge/json-schema") in the config that defines the schema ' +
        "(defineServer, defineMethod, defineNotification or defineEvent), or use a Standard Schema such as zod",
    );
    expect(check(schema, { contact: null })).toBe(true);
  });

  it("refuses format rather than ignoring it, and a tuple items", () => {
    expect(definitionError({ type: "string", format: "email" }, CORE)).toContain('#/format needs the full JSON Schema validator ("format"');
    expect(definitionError({ type: "array", items: [{ type: "string" }] }, CORE)).toContain(
      '#/items needs the full JSON Schema validator ("items" as an array of schemas (a tuple)',
    );
  });

  it("ignores annotations and unknown keywords, and refuses a pattern that does not compile or an unknown type", () => {
    const annotated = {
      type: "string",
      title: "T",
      description: "d",
      default: "x",
      examples: ["y"],
      deprecated: true,
      "x-ui": { anyOf: 1 },
    };
    expect(check(annotated, "ok", CORE)).toBe(true);
    expect(definitionError({ type: "string", pattern: "(" }, CORE)).toMatch(
      /^tool "t" input: the JSON Schema's #\/pattern is not a valid regular expression/,
    );
    expect(definitionError({ type: "int" }, CORE)).toContain("#/type must be one of string, number, integer");
  });
});
