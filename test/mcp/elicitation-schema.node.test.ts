/**
 * checkElicitationSchema: the restricted requestedSchema of 2025-06-18 "Elicitation" >
 * Requested Schema (a flat object of primitive properties), with 2025-11-25 defaults
 * (SEP-1034) and enum forms (SEP-1330). The accepted examples are the forms the official
 * conformance suite's elicitation scenarios send.
 */
import { describe, expect, it } from "vitest";
import { checkElicitationSchema } from "../../src/mcp/asks/elicitation-schema";

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

describe("schemas the conformance fixtures send", () => {
  it("accepts the tools-call-elicitation schema", () => {
    expect(
      checkElicitationSchema(
        object(
          {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          { required: ["username", "email"] },
        ),
      ),
    ).toBeUndefined();
  });

  it("accepts the SEP-1034 schema with a default on every primitive type", () => {
    expect(
      checkElicitationSchema(
        object({
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verification status", default: true },
        }),
      ),
    ).toBeUndefined();
  });

  it("accepts the SEP-1330 schema with every enum form", () => {
    expect(
      checkElicitationSchema(
        object({
          untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
            ],
          },
          legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
          untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
          titledMulti: {
            type: "array",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
              ],
            },
          },
        }),
      ),
    ).toBeUndefined();
  });

  it("accepts every string format the spec names, and numeric bounds", () => {
    expect(
      checkElicitationSchema(
        object({
          email: { type: "string", format: "email" },
          site: { type: "string", format: "uri", minLength: 3, maxLength: 200 },
          day: { type: "string", format: "date" },
          at: { type: "string", format: "date-time" },
          count: { type: "integer", minimum: 0, maximum: 10 },
        }),
      ),
    ).toBeUndefined();
  });

  it("accepts an empty properties object", () => {
    expect(checkElicitationSchema(object({}))).toBeUndefined();
  });
});

describe("schemas outside the restricted form", () => {
  it("rejects a nested object property, naming it", () => {
    const problem = checkElicitationSchema(object({ address: { type: "object", properties: { city: { type: "string" } } } }));
    expect(problem).toContain('"address"');
    expect(problem).toContain("nested objects are not allowed");
  });

  it("rejects an array of objects", () => {
    expect(checkElicitationSchema(object({ list: { type: "array", items: { type: "object" } } }))).toEqual(
      expect.stringContaining('"list"'),
    );
  });

  it("rejects an array without items", () => {
    expect(checkElicitationSchema(object({ tags: { type: "array" } }))).toEqual(expect.any(String));
  });

  it("rejects a string format the spec does not name", () => {
    expect(checkElicitationSchema(object({ phone: { type: "string", format: "phone" } }))).toContain("format");
  });

  it("rejects a property without a type", () => {
    expect(checkElicitationSchema(object({ anything: { description: "?" } }))).toEqual(expect.any(String));
  });

  it("rejects an empty or non-string enum", () => {
    expect(checkElicitationSchema(object({ e: { type: "string", enum: [] } }))).toEqual(expect.any(String));
    expect(checkElicitationSchema(object({ e: { type: "string", enum: [1, 2] } }))).toEqual(expect.any(String));
  });

  it("rejects enumNames whose length differs from enum", () => {
    expect(checkElicitationSchema(object({ e: { type: "string", enum: ["a", "b"], enumNames: ["A"] } }))).toContain("enumNames");
  });

  it("rejects a oneOf option without a title", () => {
    expect(checkElicitationSchema(object({ e: { type: "string", oneOf: [{ const: "a" }] } }))).toContain("oneOf");
  });

  it("rejects a default of the wrong type", () => {
    expect(checkElicitationSchema(object({ n: { type: "number", default: "1" } }))).toContain("default");
    expect(checkElicitationSchema(object({ b: { type: "boolean", default: "true" } }))).toContain("default");
    expect(checkElicitationSchema(object({ s: { type: "string", default: 1 } }))).toContain("default");
    expect(checkElicitationSchema(object({ m: { type: "array", items: { type: "string", enum: ["a"] }, default: "a" } }))).toContain(
      "default",
    );
  });

  it("rejects a non-string title or description", () => {
    expect(checkElicitationSchema(object({ s: { type: "string", title: 5 } }))).toContain("title");
  });

  it("rejects a schema that is not an object schema", () => {
    expect(checkElicitationSchema({ type: "string" })).toEqual(expect.any(String));
    expect(checkElicitationSchema(null)).toEqual(expect.any(String));
    expect(checkElicitationSchema([])).toEqual(expect.any(String));
  });

  it("rejects an object schema without properties", () => {
    expect(checkElicitationSchema({ type: "object" })).toContain("properties");
  });

  it("rejects required that is not a list of names", () => {
    expect(checkElicitationSchema(object({ a: { type: "string" } }, { required: "a" }))).toContain("required");
  });
});
