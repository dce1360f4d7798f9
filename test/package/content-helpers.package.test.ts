/**
 * The content helpers a tool answers with, as imported from the package: bytes become base64
 * wherever the wire wants base64 (image, audio, an embedded resource's blob), so no server
 * needs a base64 helper of its own.
 */
import { describe, expect, it } from "vitest";
import { audio, embeddedResource, image, text } from "../../src/index";

const BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]);
const BASE64 = "iVBOR/8A";

describe("content helpers", () => {
  it("sends image and audio bytes as base64, and base64 as given", () => {
    expect(image(BYTES, "image/png")).toEqual({ type: "image", data: BASE64, mimeType: "image/png" });
    expect(audio(BYTES, "audio/wav")).toEqual({ type: "audio", data: BASE64, mimeType: "audio/wav" });
    expect(image(BASE64, "image/png").data).toBe(BASE64);
  });

  it("embeds a resource whose blob is bytes as base64, and text or a base64 blob unchanged", () => {
    expect(embeddedResource({ uri: "file:///logo.png", mimeType: "image/png", blob: BYTES })).toEqual({
      type: "resource",
      resource: { uri: "file:///logo.png", mimeType: "image/png", blob: BASE64 },
    });
    expect(embeddedResource({ uri: "file:///logo.png", blob: BASE64 }).resource).toEqual({ uri: "file:///logo.png", blob: BASE64 });
    expect(embeddedResource({ uri: "file:///a.txt", text: "a" }).resource).toEqual({ uri: "file:///a.txt", text: "a" });
    expect(text("a")).toEqual({ type: "text", text: "a" });
  });
});
