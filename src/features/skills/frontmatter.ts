/**
 * The YAML subset a SKILL.md frontmatter is written in (Agent Skills: string fields and a
 * `metadata` map of strings), parsed without a YAML library. Whatever a full YAML parser (1.2 or
 * 1.1) could read differently is refused at definition time with the line and how to write it,
 * so the object a skills/list entry carries is the one every host's parser gets from the file.
 */

/** `---` first, then the block up to the first line that is `---` (what hosts and the conformance suite match). */
const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const KEY_LINE = /^( *)([A-Za-z0-9_][A-Za-z0-9_./-]*):(?:[ \t]+(.*))?$/;
/** Plain scalars YAML 1.2 or 1.1 would read as null, a boolean, a number or a date, not as a string. */
const TYPED = [
  /^(?:~|null|true|false|yes|no|on|off|y|n)$/i,
  /^[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?$/,
  /^[-+]?0[xob][0-9a-f_]+$/i,
  /^[-+]?\.(?:inf|nan)$/i,
  /^[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.\d*)?$/,
  /^\d{4}-\d\d?-\d\d?(?:$|[Tt ])/,
];
/** Characters a plain scalar cannot start with (indicators), and `<<` / `=` (YAML 1.1's merge and value keys). */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]|^(?:<<|=)$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { "\\": "\\", '"': '"', "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0" };

export type Frontmatter = Record<string, string | Record<string, string>>;

class FrontmatterError extends TypeError {}

/** The frontmatter of a SKILL.md as JSON; throws a TypeError naming the line and the fix when it is outside the subset. */
export function parseFrontmatter(markdown: string, what: string): Frontmatter {
  const block = BLOCK.exec(markdown);
  if (!block) throw new TypeError(`${what}: SKILL.md must begin with YAML frontmatter: a "---" line, "key: value" lines, a "---" line`);
  const lines = (block[1] ?? "").split(/\r?\n/);
  try {
    return parseLines(lines);
  } catch (error) {
    if (error instanceof FrontmatterError) throw new TypeError(`${what}: SKILL.md frontmatter ${error.message}`);
    throw error;
  }
}

function parseLines(lines: string[]): Frontmatter {
  const out: Frontmatter = {};
  let map: Record<string, string> | undefined;
  let mapAt = "";
  let indent = 0;
  for (const [i, line] of lines.entries()) {
    const at = `line ${i + 2}`;
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    if (line.includes("\t") && /^\s*\t/.test(line)) throw new FrontmatterError(`${at}: indent with spaces, not tabs`);
    const m = KEY_LINE.exec(line);
    if (!m)
      throw new FrontmatterError(
        `${at}: "${line.trim()}" is not a "key: value" line this parser reads (quote the value, keep it on one line)`,
      );
    const [, lead = "", key = "", rest] = m;
    if (lead.length > 0) {
      if (!map || (indent !== 0 && lead.length !== indent))
        throw new FrontmatterError(`${at}: an indented line belongs under a key with no value (like "metadata:"), indented alike`);
      if (indent === 0) indent = lead.length;
      set(map, key, scalar(rest, at, key), at);
      continue;
    }
    if (map && Object.keys(map).length === 0) throw new FrontmatterError(`${mapAt} has no value`);
    map = undefined;
    indent = 0;
    if (rest === undefined || /^(?:#.*)?$/.test(rest.trim())) {
      map = {};
      mapAt = `${at}: "${key}:"`;
      set(out, key, map, at);
    } else set(out, key, scalar(rest, at, key), at);
  }
  if (map && Object.keys(map).length === 0) throw new FrontmatterError(`${mapAt} has no value`);
  return out;
}

function set(target: Record<string, unknown>, key: string, value: unknown, at: string): void {
  if (key === "__proto__" || TYPED.some((pattern) => pattern.test(key))) throw new FrontmatterError(`${at}: "${key}" cannot be a key here`);
  if (Object.hasOwn(target, key)) throw new FrontmatterError(`${at}: "${key}" appears twice`);
  target[key] = value;
}

/** A value: double-quoted, single-quoted or plain, on one line, optionally followed by a comment. */
function scalar(raw: string | undefined, at: string, key: string): string {
  const text = (raw ?? "").trim();
  if (text.length === 0) throw new FrontmatterError(`${at}: "${key}" has no value`);
  if (text[0] === '"') return doubleQuoted(text, at);
  if (text[0] === "'") return singleQuoted(text, at);
  const value = text.replace(/[ \t]+#.*$/, "");
  const hint = `quote it ("${key}: \\"…\\"")`;
  if (INDICATOR_START.test(value)) throw new FrontmatterError(`${at}: the value of "${key}" starts with "${value[0]}"; ${hint}`);
  if (/:(?:[ \t]|$)/.test(value)) throw new FrontmatterError(`${at}: the value of "${key}" contains ": "; ${hint}`);
  if (TYPED.some((pattern) => pattern.test(value)))
    throw new FrontmatterError(`${at}: YAML reads the value of "${key}" (${value}) as something other than a string; ${hint}`);
  return value;
}

function afterQuote(text: string, end: number, at: string): void {
  if (!/^(?:[ \t]+#.*|[ \t]*)$/.test(text.slice(end + 1)))
    throw new FrontmatterError(`${at}: text after the closing quote (only a " # comment" may follow)`);
}

function doubleQuoted(text: string, at: string): string {
  let out = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      afterQuote(text, i, at);
      return out;
    }
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = text[++i];
    if (e !== undefined && Object.hasOwn(SIMPLE_ESCAPES, e)) out += SIMPLE_ESCAPES[e];
    else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5)) && !/^[dD][89a-fA-F]/.test(text.slice(i + 1, i + 3))) {
      out += String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else
      throw new FrontmatterError(`${at}: the escape "\\${e ?? ""}" is not one this parser reads (\\\\ \\" \\/ \\n \\t \\r \\0 \\uXXXX)`);
  }
  throw new FrontmatterError(`${at}: the double-quoted value does not end on its line`);
}

function singleQuoted(text: string, at: string): string {
  let out = "";
  for (let i = 1; i < text.length; i++) {
    if (text[i] !== "'") out += text[i];
    else if (text[i + 1] === "'") {
      out += "'";
      i++;
    } else {
      afterQuote(text, i, at);
      return out;
    }
  }
  throw new FrontmatterError(`${at}: the single-quoted value does not end on its line`);
}
