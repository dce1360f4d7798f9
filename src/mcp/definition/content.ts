/** Small constructors for tool and prompt content, so handlers read as what they return. */
import type {
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from "./types";

export function text(value: string): TextContent {
  return { type: "text", text: value };
}

export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return { type: "image", data: typeof data === "string" ? data : toBase64(data), mimeType };
}

export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return { type: "audio", data: typeof data === "string" ? data : toBase64(data), mimeType };
}

export function resourceLink(uri: string, name: string, extra: Omit<ResourceLink, "type" | "uri" | "name"> = {}): ResourceLink {
  return { type: "resource_link", uri, name, ...extra };
}

/** A resource inside a result; its `blob` may be bytes (sent as base64), as in a read handler's result. */
export function embeddedResource(
  resource: ResourceContents | (Omit<BlobResourceContents, "blob"> & { blob: Uint8Array }),
): EmbeddedResource {
  if ("blob" in resource && typeof resource.blob !== "string")
    return { type: "resource", resource: { ...resource, blob: toBase64(resource.blob) } };
  return { type: "resource", resource: resource as ResourceContents };
}

/** A tool failure the model should see (`isError: true`), as opposed to a protocol error. */
export function toolError(message: string): CallToolResult {
  return { content: [text(message)], isError: true };
}

/**
 * Thrown by a tool whose message is meant for the model: it becomes an `isError` result with
 * exactly this message. Anything else a tool throws is reported generically, with a reference.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

/** Standard base64 of bytes, chunked so large blobs do not overflow the argument stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}
