/**
 * Binary fixtures for the demo server, as base64 literals (checked once with a Node script:
 * PNG signature and every chunk CRC verified, WAV header fields decoded).
 */

/**
 * A 1x1 RGBA PNG (8-bit, colour type 6): signature, IHDR, one IDAT (zlib, 1 pixel), IEND.
 * Used by the image tool, the mixed-content tool, the binary resource and the image prompt.
 */
export const PNG_1X1_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * A minimal WAV file: the 44-byte RIFF/WAVE header with an empty data chunk.
 *   "RIFF" size=36 "WAVE" | "fmt " 16, PCM(1), mono, 8000 Hz, 16000 B/s, align 2, 16 bit | "data" 0
 */
export const WAV_EMPTY_BASE64 = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/** Tool annotations of the fixtures that only read. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** The demo's icon (SEP-973): a scalable SVG carried as a base64 data: URI, so it needs no host. */
const DEMO_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f38020"/>' +
  '<path d="M14 46 32 14l18 32z" fill="#fff"/></svg>';
export const DEMO_ICONS = [{ src: `data:image/svg+xml;base64,${btoa(DEMO_ICON_SVG)}`, mimeType: "image/svg+xml", sizes: ["any"] }];
