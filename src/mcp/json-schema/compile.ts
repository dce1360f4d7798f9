/**
 * JSON Schema 2020-12, compiled once into nested check functions (no code generation: Workers forbid it).
 * References resolve within the schema document only: JSON pointers, $anchor, and $id-relative URIs.
 */
import { isObject } from "../../jsonrpc/parse";
import {
  allOfKeyword,
  containsKeyword,
  dependentSchemas,
  ifKeyword,
  itemsKeyword,
  notKeyword,
  propertiesKeyword,
  propertyNamesKeyword,
  referenceKeyword,
  someOf,
  tracksEvaluation,
  unevaluated,
} from "./applicators";
import {
  constKeyword,
  dependentKeys,
  enumKeyword,
  formatKeyword,
  multipleOfKeyword,
  numberBound,
  patternKeyword,
  requiredKeyword,
  sizeBound,
  typeKeyword,
  uniqueItemsKeyword,
} from "./assertions";
import { ACCEPT, allChecks, REJECT, validatorOf } from "./checks";
import type { Compiler, Evaluated, JsonSchemaCompiler, KeywordCompiler, SchemaObject, Validate } from "./types";

// The base URI of a schema without $id: a name no reference can reach by accident.
const DOCUMENT_BASE = "https://schema.mcp-edge.invalid/";
// Keywords whose values are instance data, not subschemas; and those whose values map names to subschemas.
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** The assertion keywords, in the order their problems are reported. */
const ASSERTIONS: readonly KeywordCompiler[] = [
  typeKeyword,
  constKeyword,
  enumKeyword,
  numberBound("minimum", "at least", (value, bound) => value >= bound),
  numberBound("maximum", "at most", (value, bound) => value <= bound),
  numberBound("exclusiveMinimum", "greater than", (value, bound) => value > bound),
  numberBound("exclusiveMaximum", "less than", (value, bound) => value < bound),
  multipleOfKeyword,
  sizeBound("minLength", "string", true),
  sizeBound("maxLength", "string", false),
  patternKeyword,
  formatKeyword,
  sizeBound("minItems", "array", true),
  sizeBound("maxItems", "array", false),
  uniqueItemsKeyword,
  requiredKeyword,
  dependentKeys("dependentRequired"),
  dependentKeys("dependencies"),
  sizeBound("minProperties", "object", true),
  sizeBound("maxProperties", "object", false),
];

/** The applicator keywords, in order: in-place ones, then members, then unevaluated* (which reads what the rest recorded). */
const APPLICATORS: readonly KeywordCompiler[] = [
  referenceKeyword("$ref"),
  referenceKeyword("$dynamicRef"),
  allOfKeyword,
  someOf("anyOf"),
  someOf("oneOf"),
  notKeyword,
  ifKeyword,
  dependentSchemas("dependentSchemas"),
  dependentSchemas("dependencies"),
  propertiesKeyword,
  propertyNamesKeyword,
  itemsKeyword,
  containsKeyword,
  unevaluated("unevaluatedProperties"),
  unevaluated("unevaluatedItems"),
];

// Assertions first (their problems read first), then applicators, which end with unevaluated*.
const KEYWORDS = [...ASSERTIONS, ...APPLICATORS];

/** Where each schema resource, anchor and subschema of one document is, found by one walk before compiling. */
interface DocumentIndex {
  /** Absolute URI (no fragment) → the schema object that has that $id (the root under DOCUMENT_BASE). */
  readonly resources: Map<string, unknown>;
  /** "<resource URI>#<name>" → the schema object with that $anchor or $dynamicAnchor. */
  readonly anchors: Map<string, unknown>;
  /** $dynamicAnchor name → how many resources declare it (more than one would make $dynamicRef dynamic). */
  readonly dynamicAnchors: Map<string, number>;
  /** Schema object → the base URI its references resolve against. */
  readonly baseOf: Map<object, string>;
}

function indexSchema(node: unknown, base: string, index: DocumentIndex, isNameMap: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) indexSchema(item, base, index, false);
    return;
  }
  if (!isObject(node)) return;
  if (!isNameMap) {
    if (typeof node.$id === "string") {
      const id = new URL(node.$id, base);
      // Draft-07 named a subschema with a fragment-only $id ("#name"), as 2020-12 does with $anchor.
      if (id.hash.length > 1) index.anchors.set(id.href, node);
      else {
        base = id.href.replace(/#$/, "");
        index.resources.set(base, node);
      }
    }
    if (typeof node.$anchor === "string") index.anchors.set(`${base}#${node.$anchor}`, node);
    if (typeof node.$dynamicAnchor === "string") {
      index.anchors.set(`${base}#${node.$dynamicAnchor}`, node);
      index.dynamicAnchors.set(node.$dynamicAnchor, (index.dynamicAnchors.get(node.$dynamicAnchor) ?? 0) + 1);
    }
    index.baseOf.set(node, base);
  }
  for (const [key, value] of Object.entries(node)) {
    if (isNameMap || !DATA_KEYWORDS.has(key)) indexSchema(value, base, index, !isNameMap && NAME_MAPS.has(key));
  }
}

/** The value a JSON pointer (already percent-decoded) names inside `root`, or undefined. */
function followPointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as SchemaObject)[key];
  }
  return node;
}

/** Compiles one schema document: each schema object once (a recursive schema refers to itself through the cache). */
class DocumentCompiler implements Compiler {
  private readonly compiled = new Map<object, Validate>();
  /** The schema objects being compiled, outermost first, each with whether it applies to its parent's instance. */
  private readonly compiling: { schema: object; inPlace: boolean }[] = [];
  private readonly index: DocumentIndex = { resources: new Map(), anchors: new Map(), dynamicAnchors: new Map(), baseOf: new Map() };

  constructor(
    root: unknown,
    private readonly what: string,
  ) {
    this.index.resources.set(DOCUMENT_BASE, root);
    try {
      indexSchema(root, DOCUMENT_BASE, this.index, false);
    } catch {
      this.invalid("#", "has an $id that is not a valid URI reference");
    }
  }

  invalid(location: string, problem: string): never {
    throw new TypeError(`${this.what}: the JSON Schema's ${location} ${problem}`);
  }

  subschema(schema: unknown, location: string, inPlace = false): Validate {
    if (schema === true) return ACCEPT;
    if (schema === false) return REJECT;
    if (!isObject(schema)) return this.invalid(location, "must be a schema (an object or a boolean)");
    const known = this.compiled.get(schema);
    if (known) {
      if (inPlace) this.refuseEndlessLoop(schema, location);
      return known;
    }
    // A schema that reaches itself through $ref meets this forwarder until its checks exist.
    const slot: { validate: Validate } = { validate: ACCEPT };
    this.compiled.set(schema, (instance, at, report, evaluated) => slot.validate(instance, at, report, evaluated));
    this.compiling.push({ schema, inPlace });
    slot.validate = this.checksOf(schema, location);
    this.compiling.pop();
    return this.compiled.get(schema)!;
  }

  /** A schema reaching itself again with no property or item in between would apply to the same value forever. */
  private refuseEndlessLoop(schema: object, location: string): void {
    for (let i = this.compiling.length - 1; i >= 0; i--) {
      const frame = this.compiling[i]!;
      if (frame.schema === schema)
        this.invalid(location, "leads back to itself without going into a property or an item (an endless loop)");
      if (!frame.inPlace) return;
    }
  }

  private checksOf(schema: SchemaObject, location: string): Validate {
    const runAll = allChecks(KEYWORDS, schema, location, this);
    if (!tracksEvaluation(schema)) return runAll;
    // unevaluated* reads what this schema's own keywords evaluated; the caller learns it too (all of it, once valid).
    return (instance, at, report, evaluated) => {
      const own: Evaluated = new Set();
      const valid = runAll(instance, at, report, own);
      if (evaluated) for (const key of own) evaluated.add(key);
      return valid;
    };
  }

  reference(keyword: "$ref" | "$dynamicRef", from: SchemaObject, location: string): Validate {
    const where = `${location}/${keyword}`;
    const ref = from[keyword];
    if (typeof ref !== "string") return this.invalid(where, "must be a string");
    if (keyword === "$dynamicRef" && (this.index.dynamicAnchors.get(ref.slice(ref.indexOf("#") + 1)) ?? 0) > 1) {
      this.invalid(where, `"${ref}" needs a dynamic scope (its anchor is declared in several resources), which mcp-edge does not support`);
    }
    return this.subschema(this.resolve(ref, this.index.baseOf.get(from) ?? DOCUMENT_BASE, where), ref, true);
  }

  /** The schema a reference names: a resource of this document, then a JSON pointer or an anchor inside it. */
  private resolve(ref: string, base: string, where: string): unknown {
    let url: URL;
    let fragment: string;
    try {
      url = new URL(ref, base);
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      return this.invalid(where, `"${ref}" is not a valid URI reference`);
    }
    const anchor = url.href;
    url.hash = "";
    const resource = this.index.resources.get(url.href);
    if (resource === undefined) return this.invalid(where, `"${ref}" points outside the schema (remote references are not fetched)`);
    if (fragment === "") return resource;
    const target = fragment.startsWith("/") ? followPointer(resource, fragment) : this.index.anchors.get(anchor);
    return target ?? this.invalid(where, `"${ref}" names nothing in the schema`);
  }
}

/**
 * The full JSON Schema 2020-12 validator (`import { fullJsonSchema } from "mcp-edge/json-schema"`): every keyword and
 * format, references within the schema document. A schema it cannot use (a pattern that does not compile, a
 * reference outside the document, a keyword of the wrong type) is a TypeError naming `where` and the keyword's location.
 */
export const fullJsonSchema: JsonSchemaCompiler = (schema, where) =>
  validatorOf(new DocumentCompiler(schema, where).subschema(schema, "#"));
