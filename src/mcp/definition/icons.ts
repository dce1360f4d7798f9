/**
 * Icons and a website URL (SEP-973; 2025-11-25 and 2026-07-28 `Icon`, `Implementation.websiteUrl`):
 * the shapes an author may give the server info, tools, resources, templates and prompts, checked
 * once at definition so a typo never reaches a client. Owns no serving: the listings copy the result.
 */

/** An icon a client may show beside the server, a tool, a resource, a template or a prompt. */
export interface Icon {
  /** An https (or http) URL, or a `data:` URI with base64 image data. */
  src: string;
  /** The image type when `src` does not say it well (`image/png`, `image/svg+xml`, …). */
  mimeType?: string;
  /** `WxH` sizes (`"48x48"`) or `"any"` for scalable images; absent means any size. */
  sizes?: string[];
  /** The background the icon is drawn for; absent means either. */
  theme?: "light" | "dark";
}

const ICON_KEYS = new Set(["src", "mimeType", "sizes", "theme"]);
const SIZE = /^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$/;
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
// Icon.src: "May be an HTTP/HTTPS URL or a data: URI with Base64-encoded image data."
const DATA_URI = /^data:[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(;[^,;]+=[^,;]+)*;base64,[A-Za-z0-9+/]+={0,2}$/i;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** Checks an `icons` option and returns a copy; throws a TypeError naming `what` and the first problem. */
export function checkIcons(value: unknown, what: string): Icon[] {
  if (!Array.isArray(value)) throw new TypeError(`${what}: icons must be an array of { src, mimeType?, sizes?, theme? }`);
  return value.map((icon, i) => {
    const at = `${what}: icons[${i}]`;
    if (typeof icon !== "object" || icon === null || Array.isArray(icon)) throw new TypeError(`${at} must be an object with a src`);
    const record = icon as Record<string, unknown>;
    const unknown = Object.keys(record).find((key) => !ICON_KEYS.has(key));
    if (unknown !== undefined) throw new TypeError(`${at} has an unknown key "${unknown}" (src, mimeType, sizes, theme)`);
    const { src, mimeType, sizes, theme } = record;
    if (typeof src !== "string" || !(isHttpUrl(src) || DATA_URI.test(src)))
      throw new TypeError(`${at}.src must be an absolute http(s) URL or a base64 data: URI`);
    const copy: Icon = { src };
    if (mimeType !== undefined) {
      if (typeof mimeType !== "string" || !MIME_TYPE.test(mimeType))
        throw new TypeError(`${at}.mimeType must be a MIME type such as image/png`);
      copy.mimeType = mimeType;
    }
    if (sizes !== undefined) {
      if (!Array.isArray(sizes) || !sizes.every((s): s is string => typeof s === "string" && SIZE.test(s)))
        throw new TypeError(`${at}.sizes must be strings like "48x48" or "any"`);
      copy.sizes = [...sizes];
    }
    if (theme !== undefined) {
      if (theme !== "light" && theme !== "dark") throw new TypeError(`${at}.theme must be "light" or "dark"`);
      copy.theme = theme;
    }
    return copy;
  });
}

/** Checks `websiteUrl` (an absolute http(s) URL) and returns it. */
export function checkWebsiteUrl(value: unknown, what: string): string {
  if (typeof value !== "string" || !isHttpUrl(value)) throw new TypeError(`${what}: websiteUrl must be an absolute http(s) URL`);
  return value;
}
