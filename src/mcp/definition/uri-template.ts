/**
 * RFC 6570 URI templates, the subset MCP servers use for resource templates: simple string
 * expansion `{var}`, reserved `{+var}`, fragment `{#var}`, path segments `{/var}`, labels
 * `{.var}` and form queries `{?a,b}` / `{&a}`. Matching turns a concrete URI back into
 * variables; a template compiles once into a regular expression.
 * Hand-written on purpose (docs/engine-notes.md "What a server bundles").
 */

interface Expression {
  operator: "" | "+" | "#" | "/" | "." | "?" | "&";
  names: string[];
}

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): Record<string, string> | undefined;
  expand(values: Record<string, string>): string;
}

const EXPRESSION = /\{([+#/.?&]?)([A-Za-z0-9_.,%*]+)\}/g;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** RFC 6570 §3.2.1: outside {+} and {#} only unreserved characters stay as they are; encodeURIComponent leaves !'()* alone. */
function encodeUnreserved(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The template as literal text and expressions, in order. */
function parseTemplate(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = [];
  let last = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    if (m.index > last) parts.push(template.slice(last, m.index));
    const names = (m[2] ?? "").split(",").map((n) => n.replace(/\*$/, ""));
    parts.push({ operator: (m[1] ?? "") as Expression["operator"], names });
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}

/** The regular expression an expression matches, one group per variable. */
function expressionPattern(part: Expression): string {
  switch (part.operator) {
    case "":
      return part.names.map(() => "([^/?#&,]*)").join(",");
    case "+":
      return part.names.map(() => "([^?#]*)").join(",");
    case "#":
      return "#" + part.names.map(() => "(.*)").join(",");
    case "/":
      return part.names.map(() => "/([^/?#]*)").join("");
    case ".":
      return part.names.map(() => "\\.([^/?#.]*)").join("");
    case "?":
    case "&": {
      // Query variables may be absent; each is matched on its own.
      const lead = part.operator === "?" ? "\\?" : "&";
      return `(?:${lead}` + part.names.map((n, i) => `${i > 0 ? "&?" : ""}(?:${escapeRegExp(n)}=([^&#]*))?`).join("") + ")?";
    }
  }
}

/** An expression with `values` filled in (absent variables are left out). */
function expandExpression(part: Expression, values: Record<string, string | undefined>): string {
  const present = part.names.filter((n) => values[n] !== undefined);
  if (present.length === 0) return "";
  const enc = (v: string) => (part.operator === "+" || part.operator === "#" ? encodeURI(v) : encodeUnreserved(v));
  switch (part.operator) {
    case "?":
    case "&":
      return part.operator + present.map((n) => `${n}=${enc(values[n] ?? "")}`).join("&");
    case "":
    case "+":
      return present.map((n) => enc(values[n] ?? "")).join(",");
    case "#":
      return "#" + present.map((n) => enc(values[n] ?? "")).join(",");
    case "/":
    case ".":
      return present.map((n) => part.operator + enc(values[n] ?? "")).join("");
  }
}

export function compileUriTemplate(template: string): UriTemplate {
  const parts = parseTemplate(template);
  const variables = parts.flatMap((part) => (typeof part === "string" ? [] : part.names));
  const regex = new RegExp(`^${parts.map((part) => (typeof part === "string" ? escapeRegExp(part) : expressionPattern(part))).join("")}$`);
  return {
    template,
    variables,
    match(uri) {
      const m = regex.exec(uri);
      if (!m) return undefined;
      const out: Record<string, string> = {};
      variables.forEach((name, i) => {
        const value = m[i + 1];
        if (value !== undefined) out[name] = decode(value);
      });
      return out;
    },
    expand: (values) => parts.map((part) => (typeof part === "string" ? part : expandExpression(part, values))).join(""),
  };
}
