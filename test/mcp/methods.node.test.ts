/**
 * An extension's methods and notifications are checked when defined (definition/methods.ts): a name
 * mcp-edge serves itself, a malformed name or extension id, a params schema that is not an object,
 * a second definition of one name; a method with `extension` declares it on its server.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineServer } from "../../src/mcp/definition/server";
import { defineMethod, defineNotification } from "../../src/mcp/handlers/methods";

const server = () => defineServer({ name: "methods", version: "1.0.0" });

describe("defining an extension's methods", () => {
  it("refuses names mcp-edge serves itself, with what to do", () => {
    expect(() => defineMethod("tools/call", {}, () => ({}))).toThrow(/mcp-edge serves this method itself/);
    expect(() => defineNotification("notifications/cancelled", {}, () => {})).toThrow(/mcp-edge serves this method itself/);
  });

  it("refuses malformed names and extension identifiers", () => {
    expect(() => defineMethod("", {}, () => ({}))).toThrow(/names are 1-128 characters/);
    expect(() => defineMethod("com.example/x y", {}, () => ({}))).toThrow(/names are 1-128 characters/);
    expect(() => defineMethod("com.example/x", { extension: "notes" }, () => ({}))).toThrow(/identifiers look like "com.example\/name"/);
  });

  it("refuses a params schema that is not an object", () => {
    expect(() => defineNotification("notifications/x", { params: z.string() }, () => {})).toThrow(/params schema must have type "object"/);
  });

  it("refuses a second definition of one name on a server, and keeps each server's own", () => {
    const a = server().add(defineMethod("com.example/a", {}, () => ({})));
    expect(() => a.add(defineMethod("com.example/a", {}, () => ({})))).toThrow(/method "com.example\/a" is already defined/);
    expect(server().methods.has("com.example/a")).toBe(false);
  });

  it("declares the method's extension on its server ({} unless the author declared settings)", () => {
    const declared = server()
      .extension("com.example/notes", { max: 3 })
      .add(defineMethod("com.example/notes/add", { extension: "com.example/notes" }, () => ({})));
    expect(declared.extensions.get("com.example/notes")?.settings).toEqual({ max: 3 });
    const implied = server().add(defineMethod("com.example/notes/add", { extension: "com.example/notes" }, () => ({})));
    expect(implied.extensions.get("com.example/notes")?.settings).toEqual({});
  });
});
