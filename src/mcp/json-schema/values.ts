/**
 * What the validator needs to know about JSON values: their JSON type, deep equality, a string's length in
 * code points, exact decimal multiples, and the pointer of a child for messages.
 */
import type { Report } from "./types";

/** JSON Schema's type names, each as a message says it. */
export const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

/** "a string", "a string or null", "a string, a number or null". */
export function describeTypes(types: readonly string[]): string {
  const names = types.map((type) => TYPE_NAMES[type] ?? type);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "nothing");
}

/** The JSON type of a value ("integer" is never returned: it is a number). */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Whether `value` has the JSON Schema type `type`; 1.0 is an integer. */
export function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  return jsonType(value) === type;
}

/** JSON equality: numbers by value, arrays item by item, objects by their keys whatever their order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

/** The length of a string in Unicode code points (a surrogate pair is one; a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pairs = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pairs) i++;
    count++;
  }
  return count;
}

/** A finite number as the integer `digits` times 10 to the `exponent`, read from its shortest decimal form. */
function decimal(value: number): { digits: bigint; exponent: number } {
  const [mantissa = "0", exponent = "0"] = Math.abs(value).toString().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  return { digits: BigInt(whole + fraction), exponent: Number(exponent) - fraction.length };
}

/**
 * Whether `value` is a whole multiple of `divisor`, computed on the decimals as written (0.3 is a multiple of
 * 0.1, which binary floating point would deny).
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value) && Number.isInteger(divisor)) return value % divisor === 0;
  const a = decimal(value);
  const b = decimal(divisor);
  const shift = a.exponent - b.exponent;
  return shift >= 0 ? (a.digits * 10n ** BigInt(shift)) % b.digits === 0n : a.digits % (b.digits * 10n ** BigInt(-shift)) === 0n;
}

/** The pointer of a child, built only when problems are being reported (a yes-or-no walk never reads it). */
export function childAt(at: string, key: string | number, report: Report): string {
  if (!report) return at;
  return `${at}/${typeof key === "number" ? key : key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** A value as a person reads it in a message: JSON, cut short when long. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
