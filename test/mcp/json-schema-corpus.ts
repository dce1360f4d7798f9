/**
 * Hand-written JSON Schemas with instances each is known to accept and to refuse, one or more per keyword of
 * 2020-12 (and the draft-07 forms tool authors still write). test/mcp/json-schema-differential.test.ts runs
 * them through mcp-edge's validator and @cfworker/json-schema; the instances also seed its random ones.
 */
export interface CorpusCase {
  readonly name: string;
  readonly schema: unknown;
  readonly valid: readonly unknown[];
  readonly invalid: readonly unknown[];
}

const tree = {
  $defs: {
    node: {
      type: "object",
      properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
      required: ["value"],
      additionalProperties: false,
    },
  },
  $ref: "#/$defs/node",
};

export const CORPUS: readonly CorpusCase[] = [
  // type
  { name: "type string", schema: { type: "string" }, valid: ["", "a", "😀"], invalid: [1, null, true, [], {}] },
  { name: "type number", schema: { type: "number" }, valid: [0, 1.5, -3, 1e300], invalid: ["1", null, [], {}, false] },
  { name: "type integer", schema: { type: "integer" }, valid: [0, 1, 1.0, -7, 1e20], invalid: [1.5, 0.1, "1", null] },
  { name: "type boolean", schema: { type: "boolean" }, valid: [true, false], invalid: [0, "true", null] },
  { name: "type null", schema: { type: "null" }, valid: [null], invalid: [0, "", false, {}] },
  { name: "type object", schema: { type: "object" }, valid: [{}, { a: 1 }], invalid: [[], null, "{}"] },
  { name: "type array", schema: { type: "array" }, valid: [[], [1, "a"]], invalid: [{}, "[]", null] },
  { name: "type list", schema: { type: ["string", "null"] }, valid: ["x", null], invalid: [1, {}, []] },
  { name: "type integer or boolean", schema: { type: ["integer", "boolean"] }, valid: [3, true], invalid: [3.5, "3"] },
  // boolean schemas
  { name: "true schema", schema: true, valid: [1, "a", null, {}, []], invalid: [] },
  { name: "false schema", schema: false, valid: [], invalid: [1, "a", null, {}, []] },
  { name: "empty schema", schema: {}, valid: [1, "a", null, { a: [1] }], invalid: [] },
  // const and enum
  { name: "const string", schema: { const: "on" }, valid: ["on"], invalid: ["off", "On", 1, null] },
  { name: "const null", schema: { const: null }, valid: [null], invalid: [0, "", false] },
  { name: "const number", schema: { const: 1 }, valid: [1, 1.0], invalid: [1.5, "1", true] },
  {
    name: "const object (key order irrelevant)",
    schema: { const: { a: 1, b: [1, { c: null }] } },
    valid: [{ b: [1, { c: null }], a: 1 }],
    invalid: [{ a: 1 }, { a: 1, b: [1, { c: 0 }] }, { a: 1, b: [1, { c: null }], d: 1 }, [1]],
  },
  { name: "const array", schema: { const: [1, "a"] }, valid: [[1, "a"]], invalid: [["a", 1], [1], [1, "a", 2]] },
  {
    name: "enum",
    schema: { enum: ["a", 1, null, { x: 1 }, [2]] },
    valid: ["a", 1, null, { x: 1 }, [2]],
    invalid: ["b", 2, { x: 2 }, [2, 2], false],
  },
  // numbers
  { name: "minimum", schema: { minimum: 1 }, valid: [1, 2, "x"], invalid: [0.999, -1] },
  { name: "maximum", schema: { type: "integer", maximum: 10 }, valid: [10, -5], invalid: [11, 10.5] },
  { name: "exclusiveMinimum", schema: { exclusiveMinimum: 0 }, valid: [0.001, 5], invalid: [0, -1] },
  { name: "exclusiveMaximum", schema: { exclusiveMaximum: 1.5 }, valid: [1.49, -3], invalid: [1.5, 2] },
  { name: "range", schema: { type: "number", minimum: -1, maximum: 1 }, valid: [-1, 0, 1], invalid: [-1.1, 1.01, "0"] },
  { name: "multipleOf integer", schema: { multipleOf: 3 }, valid: [0, 3, -9, 3.0], invalid: [1, 4.5] },
  { name: "multipleOf 0.01", schema: { multipleOf: 0.01 }, valid: [0.01, 0.1, 19.99, 1.1, 0.3, 100], invalid: [0.001, 1.005, 0.015] },
  { name: "multipleOf 0.1", schema: { multipleOf: 0.1 }, valid: [0.3, 0.7, 1.2, 4], invalid: [0.35, 0.01] },
  { name: "multipleOf 1.5", schema: { multipleOf: 1.5 }, valid: [0, 1.5, 3, 4.5, -6], invalid: [1, 2.25] },
  // strings
  { name: "minLength", schema: { minLength: 2 }, valid: ["ab", "😀😀", "éé", 5], invalid: ["a", "😀", ""] },
  { name: "maxLength", schema: { maxLength: 2 }, valid: ["ab", "😀😀", "", 500], invalid: ["abc", "😀😀😀", "a😀b"] },
  { name: "pattern", schema: { pattern: "^[a-z]+\\d*$" }, valid: ["abc", "ab12", 7], invalid: ["Abc", "12", ""] },
  { name: "pattern unicode", schema: { pattern: "^\\p{L}+$" }, valid: ["héllo", "日本"], invalid: ["a1", "a b"] },
  { name: "pattern unanchored", schema: { pattern: "es" }, valid: ["test", "yes"], invalid: ["tst"] },
  // formats
  {
    name: "format date-time",
    schema: { format: "date-time" },
    valid: ["2024-02-29T12:30:00Z", "2024-01-01t00:00:00.123+02:00", "1990-12-31T23:59:60Z", 7],
    invalid: ["2023-02-29T12:00:00Z", "2024-01-01", "2024-01-01T25:00:00Z", "2024-01-01T12:00:00", "x"],
  },
  {
    name: "format date",
    schema: { format: "date" },
    valid: ["2024-02-29", "2000-12-31"],
    invalid: ["2023-02-29", "2024-13-01", "2024-1-1", "24-01-01"],
  },
  {
    name: "format time",
    schema: { format: "time" },
    valid: ["12:00:00Z", "23:59:59.5-05:30"],
    invalid: ["12:00:00", "24:00:00Z", "12:60:00Z"],
  },
  {
    name: "format duration",
    schema: { format: "duration" },
    valid: ["P1D", "PT1H30M", "P1Y2M3DT4H5M6S", "P2W"],
    invalid: ["P", "PT", "1D", "P1H", "P1DT"],
  },
  {
    name: "format email",
    schema: { format: "email" },
    valid: ["a@example.com", "first.last+tag@sub.example.org"],
    invalid: ["a", "a@", "@b.c", ".a@b.c", "a..b@c.d"],
  },
  {
    name: "format hostname",
    schema: { format: "hostname" },
    valid: ["example.com", "a-b.c", "localhost"],
    invalid: ["-a.com", "a_b.com", "a..b", ""],
  },
  {
    name: "format ipv4",
    schema: { format: "ipv4" },
    valid: ["192.168.0.1", "0.0.0.0", "255.255.255.255"],
    invalid: ["256.1.1.1", "1.2.3", "1.2.3.4.5", "a.b.c.d"],
  },
  {
    name: "format ipv6",
    schema: { format: "ipv6" },
    valid: ["::1", "2001:db8::8a2e:370:7334", "::", "::ffff:192.168.1.1", "1:2:3:4:5:6:7:8"],
    invalid: ["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::1", ":1:2"],
  },
  {
    name: "format uri",
    schema: { format: "uri" },
    valid: ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@b.c"],
    invalid: ["/relative/path", "example.com", "http://a b.com"],
  },
  {
    name: "format uri-reference",
    schema: { format: "uri-reference" },
    valid: ["/relative/path", "https://example.com", "#frag", "a/b"],
    invalid: ["a b", "\\\\x"],
  },
  {
    name: "format uuid",
    schema: { format: "uuid" },
    valid: ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"],
    invalid: ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400"],
  },
  { name: "format regex", schema: { format: "regex" }, valid: ["^a+$", "\\d{2}"], invalid: ["(", "[a-", "a{2,1}"] },
  { name: "format json-pointer", schema: { format: "json-pointer" }, valid: ["", "/a/b", "/a~0b/~1"], invalid: ["a", "/a~2", "/~"] },
  { name: "format unknown", schema: { format: "not-a-format" }, valid: ["anything", 1], invalid: [] },
  // objects
  {
    name: "properties and required",
    schema: { type: "object", properties: { text: { type: "string" }, count: { type: "integer" } }, required: ["text"] },
    valid: [{ text: "a" }, { text: "a", count: 2, other: true }],
    invalid: [{}, { count: 2 }, { text: 1 }, { text: "a", count: 2.5 }, []],
  },
  {
    name: "additionalProperties false",
    schema: { properties: { a: {} }, patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
    valid: [{}, { a: 1 }, { "x-y": "z" }],
    invalid: [{ b: 1 }, { "x-y": 1 }, { a: 1, c: 2 }],
  },
  {
    name: "additionalProperties schema",
    schema: { properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
    valid: [{ a: "x", b: 1 }, { c: 2.5 }],
    invalid: [{ b: "x" }, { a: 1 }],
  },
  {
    name: "patternProperties",
    schema: { patternProperties: { "^n_": { type: "number" }, _s$: { type: "string" } } },
    valid: [{ n_1: 1, a_s: "x", other: null }],
    invalid: [{ n_1: "x" }, { a_s: 2 }, { n_s: 1 }, { n_s: "x" }],
  },
  {
    name: "propertyNames",
    schema: { propertyNames: { pattern: "^[a-z]+$", maxLength: 3 } },
    valid: [{}, { abc: 1 }],
    invalid: [{ ABC: 1 }, { abcd: 1 }],
  },
  {
    name: "min/maxProperties",
    schema: { minProperties: 1, maxProperties: 2 },
    valid: [{ a: 1 }, { a: 1, b: 2 }, []],
    invalid: [{}, { a: 1, b: 2, c: 3 }],
  },
  {
    name: "dependentRequired",
    schema: { dependentRequired: { card: ["billing", "cvc"] } },
    valid: [{}, { billing: 1 }, { card: 1, billing: 1, cvc: 1 }],
    invalid: [{ card: 1 }, { card: 1, billing: 1 }],
  },
  {
    name: "dependentSchemas",
    schema: { dependentSchemas: { card: { required: ["billing"], properties: { billing: { type: "string" } } } } },
    valid: [{}, { card: 1, billing: "x" }, { billing: 2 }],
    invalid: [{ card: 1 }, { card: 1, billing: 2 }],
  },
  {
    name: "draft-07 dependencies",
    schema: { dependencies: { a: ["b"], c: { properties: { d: { type: "string" } }, required: ["d"] } } },
    valid: [{}, { a: 1, b: 2 }, { c: 1, d: "x" }],
    invalid: [{ a: 1 }, { c: 1 }, { c: 1, d: 2 }],
  },
  // arrays
  { name: "items", schema: { type: "array", items: { type: "integer" } }, valid: [[], [1, 2, 3]], invalid: [[1, "2"], [1.5], {}] },
  {
    name: "prefixItems",
    schema: { prefixItems: [{ type: "string" }, { type: "number" }] },
    valid: [[], ["a"], ["a", 1, null]],
    invalid: [[1], ["a", "b"]],
  },
  {
    name: "prefixItems and items false",
    schema: { prefixItems: [{ type: "string" }], items: false },
    valid: [[], ["a"]],
    invalid: [["a", 1], [1]],
  },
  {
    name: "prefixItems and items",
    schema: { prefixItems: [{ const: "cmd" }], items: { type: "number" } },
    valid: [["cmd"], ["cmd", 1, 2]],
    invalid: [
      ["cmd", "x"],
      ["other", 1],
    ],
  },
  {
    name: "draft-07 items array and additionalItems",
    schema: { items: [{ type: "string" }, { type: "boolean" }], additionalItems: { type: "null" } },
    valid: [[], ["a", true], ["a", false, null, null]],
    invalid: [[1], ["a", 1], ["a", true, 0]],
  },
  { name: "draft-07 items array alone", schema: { items: [{ type: "string" }] }, valid: [["a", 1, {}]], invalid: [[1]] },
  { name: "additionalItems without items is ignored", schema: { additionalItems: false }, valid: [[1, 2]], invalid: [] },
  { name: "min/maxItems", schema: { minItems: 1, maxItems: 2 }, valid: [[1], [1, 2], "x"], invalid: [[], [1, 2, 3]] },
  {
    name: "uniqueItems",
    schema: { uniqueItems: true },
    valid: [[], [1, 2], [{ a: 1 }, { a: 2 }], [1, "1"], [[1], [2]]],
    invalid: [
      [1, 1],
      [1, 1.0],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [[1], [1]],
      [null, null],
    ],
  },
  { name: "uniqueItems false", schema: { uniqueItems: false }, valid: [[1, 1]], invalid: [] },
  { name: "contains", schema: { contains: { type: "string" } }, valid: [["a"], [1, "b"], {}], invalid: [[], [1, 2]] },
  {
    name: "minContains and maxContains",
    schema: { contains: { type: "number" }, minContains: 2, maxContains: 3 },
    valid: [
      [1, 2],
      [1, "a", 2, 3],
    ],
    invalid: [[1], [1, 2, 3, 4], ["a", "b"], []],
  },
  { name: "minContains 0", schema: { contains: { type: "number" }, minContains: 0 }, valid: [[], ["a"]], invalid: [] },
  { name: "maxContains alone", schema: { contains: { const: 1 }, maxContains: 1 }, valid: [[1, 2]], invalid: [[1, 1], [2]] },
  // applicators
  { name: "allOf", schema: { allOf: [{ type: "number" }, { minimum: 2 }, { maximum: 5 }] }, valid: [2, 5], invalid: [1, 6, "3"] },
  {
    name: "anyOf",
    schema: {
      anyOf: [
        { type: "string", maxLength: 2 },
        { type: "number", minimum: 0 },
      ],
    },
    valid: ["ab", 3],
    invalid: ["abc", -1, null],
  },
  { name: "oneOf", schema: { oneOf: [{ multipleOf: 2 }, { multipleOf: 3 }] }, valid: [2, 3, 4, 9], invalid: [6, 0, 5] },
  {
    name: "oneOf of objects",
    schema: {
      oneOf: [
        { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"] },
        { type: "object", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind", "side"] },
      ],
    },
    valid: [
      { kind: "circle", r: 1 },
      { kind: "square", side: 2 },
    ],
    invalid: [{ kind: "circle" }, { kind: "triangle" }, { kind: "square", side: "2" }],
  },
  { name: "not", schema: { not: { type: "string" } }, valid: [1, null, {}], invalid: ["a", ""] },
  { name: "not not", schema: { not: { not: { minimum: 3 } } }, valid: [3, "x"], invalid: [2] },
  {
    name: "if then else",
    schema: { if: { properties: { country: { const: "US" } } }, then: { required: ["zip"] }, else: { required: ["postcode"] } },
    valid: [{ country: "US", zip: 1 }, { country: "FR", postcode: 1 }, { zip: 2 }],
    invalid: [{ country: "US" }, { country: "US", postcode: 1 }, { country: "FR", zip: 1 }, { postcode: 2 }],
  },
  { name: "if then only", schema: { if: { type: "number" }, then: { minimum: 0 } }, valid: [0, "x", null], invalid: [-1] },
  { name: "if else only", schema: { if: { type: "number" }, else: { type: "string" } }, valid: [-1, "x"], invalid: [null, {}] },
  { name: "then without if is ignored", schema: { then: false, else: false }, valid: [1, "a"], invalid: [] },
  // references
  {
    name: "$ref to $defs",
    schema: { $defs: { pos: { type: "integer", minimum: 1 } }, properties: { a: { $ref: "#/$defs/pos" } } },
    valid: [{ a: 1 }, {}],
    invalid: [{ a: 0 }, { a: "1" }],
  },
  {
    name: "$ref to definitions",
    schema: { definitions: { s: { type: "string" } }, items: { $ref: "#/definitions/s" } },
    valid: [["a"]],
    invalid: [[1]],
  },
  {
    name: "$ref with siblings",
    schema: { $defs: { n: { type: "number" } }, $ref: "#/$defs/n", minimum: 10 },
    valid: [10, 11],
    invalid: [9, "10"],
  },
  {
    name: "$ref to root (recursive list)",
    schema: { type: ["array", "integer"], items: { $ref: "#" } },
    valid: [1, [1, [2, [3]]], []],
    invalid: [[1, "a"], [[1.5]], "x"],
  },
  {
    name: "recursive tree",
    schema: tree,
    valid: [{ value: 1 }, { value: 1, children: [{ value: 2, children: [] }, { value: 3 }] }],
    invalid: [{}, { value: 1, children: [{}] }, { value: 1, extra: 0 }, { value: 1, children: [{ value: 2, children: [{ value: "3" }] }] }],
  },
  {
    name: "$ref escaped pointers",
    schema: {
      $defs: { "a/b": { type: "string" }, "c~d": { type: "number" }, "e f": { type: "boolean" }, "%25": { type: "null" } },
      properties: { x: { $ref: "#/$defs/a~1b" }, y: { $ref: "#/$defs/c~0d" }, z: { $ref: "#/$defs/e%20f" } },
    },
    valid: [{ x: "s", y: 1, z: true }],
    invalid: [{ x: 1 }, { y: "s" }, { z: null }],
  },
  {
    name: "$ref into properties",
    schema: { properties: { a: { type: "string" }, b: { $ref: "#/properties/a" } } },
    valid: [{ a: "x", b: "y" }],
    invalid: [{ b: 1 }],
  },
  {
    name: "$ref into items array",
    schema: { prefixItems: [{ type: "string" }], items: { $ref: "#/prefixItems/0" } },
    valid: [["a", "b"]],
    invalid: [["a", 1]],
  },
  {
    name: "$anchor",
    schema: { $defs: { x: { $anchor: "word", type: "string", pattern: "^\\w+$" } }, items: { $ref: "#word" } },
    valid: [["ab"]],
    invalid: [["a b"], [1]],
  },
  {
    name: "$id-relative $ref",
    schema: {
      $id: "https://example.com/schemas/order",
      properties: { customer: { $ref: "customer" }, total: { $ref: "/schemas/money" } },
      $defs: {
        customer: { $id: "customer", type: "object", properties: { id: { $ref: "#/$defs/id" } }, $defs: { id: { type: "integer" } } },
        money: { $id: "https://example.com/schemas/money", type: "number", minimum: 0 },
      },
    },
    valid: [{ customer: { id: 1 }, total: 2 }],
    invalid: [{ customer: { id: "1" } }, { total: -1 }, { customer: [] }],
  },
  {
    name: "$id with a nested $anchor",
    schema: { $id: "https://example.com/root", $defs: { a: { $anchor: "a", minimum: 5 } }, $ref: "#a" },
    valid: [5],
    invalid: [4],
  },
  // unevaluated
  {
    name: "unevaluatedProperties through allOf",
    schema: { allOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "number" } } }], unevaluatedProperties: false },
    valid: [{}, { a: "x", b: 1 }],
    invalid: [{ a: "x", c: 1 }, { a: 1 }],
  },
  {
    name: "unevaluatedProperties through anyOf (only the branches that match)",
    schema: {
      anyOf: [
        { properties: { a: { const: 1 } }, required: ["a"] },
        { properties: { b: { const: 2 } }, required: ["b"] },
      ],
      unevaluatedProperties: false,
    },
    valid: [{ a: 1 }, { b: 2 }, { a: 1, b: 2 }],
    invalid: [{ a: 1, b: 3 }, { a: 1, c: 1 }, {}],
  },
  {
    name: "unevaluatedProperties through oneOf",
    schema: {
      oneOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "string" } }, required: ["b"] },
      ],
      unevaluatedProperties: false,
    },
    valid: [{ a: "x" }, { b: "y" }],
    invalid: [
      { a: "x", b: "y" },
      { a: "x", c: 1 },
    ],
  },
  {
    name: "unevaluatedProperties through if/then/else",
    schema: {
      if: { properties: { kind: { const: "a" } }, required: ["kind"] },
      then: { properties: { x: true } },
      else: { properties: { y: true } },
      unevaluatedProperties: false,
    },
    valid: [{ kind: "a", x: 1 }, { y: 1 }],
    invalid: [{ kind: "a", y: 1 }, { kind: "b", y: 1 }, { x: 1 }],
  },
  {
    name: "unevaluatedProperties through $ref",
    schema: {
      $defs: { base: { properties: { id: { type: "integer" } } } },
      $ref: "#/$defs/base",
      properties: { name: { type: "string" } },
      unevaluatedProperties: false,
    },
    valid: [{ id: 1, name: "x" }, {}],
    invalid: [{ id: 1, other: 1 }],
  },
  {
    name: "unevaluatedProperties through dependentSchemas",
    schema: { properties: { a: true }, dependentSchemas: { a: { properties: { b: true } } }, unevaluatedProperties: false },
    valid: [{ a: 1, b: 1 }, { a: 1 }],
    invalid: [{ b: 1 }, { a: 1, c: 1 }],
  },
  {
    name: "unevaluatedProperties with patternProperties and a schema",
    schema: { patternProperties: { "^x": true }, unevaluatedProperties: { type: "number" } },
    valid: [{ xa: "s", b: 1 }],
    invalid: [{ b: "s" }],
  },
  {
    name: "unevaluatedProperties does not see inside not",
    schema: { not: { not: { properties: { a: true } } }, unevaluatedProperties: false },
    valid: [{}],
    invalid: [{ a: 1 }],
  },
  {
    name: "nested unevaluatedProperties",
    schema: { properties: { inner: { allOf: [{ properties: { a: true } }], unevaluatedProperties: false } }, unevaluatedProperties: false },
    valid: [{ inner: { a: 1 } }],
    invalid: [{ inner: { a: 1, b: 1 } }, { inner: {}, x: 1 }],
  },
  {
    name: "unevaluatedItems after prefixItems",
    schema: { prefixItems: [{ type: "string" }], unevaluatedItems: false },
    valid: [[], ["a"]],
    invalid: [["a", "b"]],
  },
  {
    name: "unevaluatedItems through allOf",
    schema: { allOf: [{ prefixItems: [true, true] }], unevaluatedItems: { type: "number" } },
    valid: [
      ["a", "b"],
      ["a", "b", 3],
    ],
    invalid: [["a", "b", "c"]],
  },
  {
    name: "unevaluatedItems with contains",
    schema: { contains: { type: "string" }, unevaluatedItems: { type: "number" } },
    valid: [["a", 1, "b"], ["a"]],
    invalid: [["a", null], [1]],
  },
  {
    name: "unevaluatedItems through anyOf",
    schema: { anyOf: [{ prefixItems: [{ const: 1 }] }, { prefixItems: [true, { const: 2 }] }], unevaluatedItems: false },
    valid: [[1], [1, 2], [3, 2]],
    invalid: [
      [1, 3],
      [3, 3],
    ],
  },
  {
    name: "unevaluatedItems after items",
    schema: { items: { type: "number" }, unevaluatedItems: false },
    valid: [[1, 2]],
    invalid: [["a"]],
  },
  // boolean subschemas and edge values
  {
    name: "boolean subschemas in applicators",
    schema: { allOf: [true], anyOf: [false, { type: "number" }], not: false },
    valid: [1],
    invalid: ["a", null],
  },
  { name: "not true", schema: { not: true }, valid: [], invalid: [1, null, {}] },
  { name: "propertyNames false", schema: { propertyNames: false }, valid: [{}, 1], invalid: [{ a: 1 }] },
  { name: "contains false", schema: { contains: false }, valid: ["x"], invalid: [[], [1]] },
  { name: "items true and prefixItems false", schema: { prefixItems: [false], items: true }, valid: [[]], invalid: [[1], [null, 2]] },
  { name: "empty enum", schema: { enum: [] }, valid: [], invalid: [1, null] },
  { name: "empty required", schema: { required: [] }, valid: [{}, 1], invalid: [] },
  { name: "const false and 0", schema: { anyOf: [{ const: false }, { const: 0 }] }, valid: [false, 0, -0], invalid: [null, "", "0", true] },
  {
    name: "patternProperties overlapping properties",
    schema: { properties: { ab: { type: "string" } }, patternProperties: { "^a": { maxLength: 1 } }, additionalProperties: false },
    valid: [{ ab: "x" }, { a: "y" }],
    invalid: [{ ab: "xy" }, { ab: 1 }, { b: "x" }],
  },
  {
    name: "$ref to a nested $id resource by its own pointer",
    schema: {
      $id: "https://example.com/a",
      $defs: { b: { $id: "b", $defs: { c: { type: "string" } }, $ref: "#/$defs/c" } },
      items: { $ref: "b" },
    },
    valid: [["x"]],
    invalid: [[1]],
  },
  {
    name: "unevaluatedItems through $ref and if",
    schema: {
      $defs: { two: { prefixItems: [true, true] } },
      if: { prefixItems: [{ const: "long" }] },
      then: { $ref: "#/$defs/two" },
      else: { prefixItems: [true] },
      unevaluatedItems: false,
    },
    valid: [["long", 2], ["short"]],
    invalid: [
      ["long", 2, 3],
      ["short", 2],
    ],
  },
  {
    name: "nested applicators",
    schema: {
      anyOf: [
        { allOf: [{ type: "object" }, { oneOf: [{ required: ["a"] }, { required: ["b"] }] }] },
        { type: "array", items: { anyOf: [{ type: "null" }, { $ref: "#" }] } },
      ],
    },
    valid: [{ a: 1 }, [null, { b: 1 }], [[null]]],
    invalid: [{ a: 1, b: 2 }, {}, [1], [{ c: 1 }]],
  },
  // a tool's input schema, as authors write them
  {
    name: "tool input",
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Search",
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "what to find" },
        limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
        sort: { enum: ["relevance", "date"] },
        filters: { type: "object", additionalProperties: { type: "array", items: { type: "string" }, uniqueItems: true } },
        since: { type: ["string", "null"], format: "date" },
      },
      required: ["query"],
      additionalProperties: false,
      examples: [{ query: "x" }],
    },
    valid: [
      { query: "x" },
      { query: "x", limit: 50, sort: "date", filters: { tag: ["a", "b"] }, since: null },
      { query: "y", since: "2024-01-31" },
    ],
    invalid: [
      {},
      { query: "" },
      { query: "x", limit: 0 },
      { query: "x", sort: "name" },
      { query: "x", filters: { tag: ["a", "a"] } },
      { query: "x", since: "yesterday" },
      { query: "x", page: 2 },
    ],
  },
  {
    name: "zod-style output (anyOf with null, $defs)",
    schema: {
      type: "object",
      properties: {
        user: { anyOf: [{ $ref: "#/$defs/__schema0" }, { type: "null" }] },
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
      },
      required: ["user", "tags"],
      additionalProperties: false,
      $defs: {
        __schema0: {
          type: "object",
          properties: { id: { type: "string", format: "uuid" } },
          required: ["id"],
          additionalProperties: false,
        },
      },
    },
    valid: [
      { user: null, tags: [] },
      { user: { id: "123e4567-e89b-12d3-a456-426614174000" }, tags: ["a"] },
    ],
    invalid: [{ user: { id: "nope" }, tags: [] }, { user: {}, tags: [] }, { user: null, tags: ["a", "b", "c", "d"] }, { user: null }],
  },
];
