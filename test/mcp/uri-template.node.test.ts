/**
 * RFC 6570 URI templates as resource templates use them: expansion (checked against the RFC's
 * own examples, §3.2, with var="value", hello="Hello World!", path="/foo/bar", x=1024, y=768)
 * and matching a concrete URI back to its variables.
 */
import { describe, expect, it } from "vitest";
import { compileUriTemplate } from "../../src/mcp/definition/uri-template";

const RFC_VALUES = { var: "value", hello: "Hello World!", path: "/foo/bar", x: "1024", y: "768" };
const expand = (template: string, values: Record<string, string> = RFC_VALUES) => compileUriTemplate(template).expand(values);
const match = (template: string, uri: string) => compileUriTemplate(template).match(uri);

describe("compileUriTemplate", () => {
  it("lists the variables of every expression in order", () => {
    expect(compileUriTemplate("x://{a}{+b}{/c,d}{?e,f}").variables).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("keeps the template text", () => {
    expect(compileUriTemplate("test://template/{id}/data").template).toBe("test://template/{id}/data");
  });
});

describe("simple expansion {var}", () => {
  it("expands RFC 6570 §3.2.2 examples", () => {
    expect(expand("{var}")).toBe("value");
    expect(expand("{hello}")).toBe("Hello%20World%21");
    expect(expand("{x,y}")).toBe("1024,768");
  });

  it("percent-encodes reserved characters such as / and ?", () => {
    expect(expand("test://template/{id}/data", { id: "a/b?c" })).toBe("test://template/a%2Fb%3Fc/data");
  });

  it("matches a URI and returns the variable", () => {
    expect(match("test://template/{id}/data", "test://template/42/data")).toEqual({ id: "42" });
  });

  it("decodes percent-encoded values when matching", () => {
    expect(match("test://template/{id}/data", "test://template/a%2Fb%20c/data")).toEqual({ id: "a/b c" });
  });

  it("round-trips a value through expand and match", () => {
    const t = compileUriTemplate("notes://{folder}/{id}");
    const values = { folder: "my notes", id: "it's (1)!" };
    expect(t.match(t.expand(values))).toEqual(values);
  });

  it("does not match across a path segment", () => {
    expect(match("test://template/{id}/data", "test://template/1/2/data")).toBeUndefined();
  });

  it("does not match a different prefix or suffix", () => {
    expect(match("test://template/{id}/data", "test://other/1/data")).toBeUndefined();
    expect(match("test://template/{id}/data", "test://template/1/data/more")).toBeUndefined();
  });

  it("treats regular-expression characters in the literal part literally", () => {
    expect(match("a+b://x.y/{id}", "a+b://x.y/1")).toEqual({ id: "1" });
    expect(match("a+b://x.y/{id}", "aab://xzy/1")).toBeUndefined();
  });

  it("keeps a malformed percent sequence as it is", () => {
    expect(match("x://{id}", "x://100%zz")).toEqual({ id: "100%zz" });
  });
});

describe("reserved expansion {+var}", () => {
  it("expands RFC 6570 §3.2.3 examples, keeping reserved characters", () => {
    expect(expand("{+var}")).toBe("value");
    expect(expand("{+hello}")).toBe("Hello%20World!");
    expect(expand("{+path}/here")).toBe("/foo/bar/here");
  });

  it("matches a value that spans path segments", () => {
    expect(match("file:///{+path}", "file:///docs/2024/report.txt")).toEqual({ path: "docs/2024/report.txt" });
  });

  it("round-trips a path with a space", () => {
    const t = compileUriTemplate("file:///{+path}");
    expect(t.expand({ path: "a b/c" })).toBe("file:///a%20b/c");
    expect(t.match("file:///a%20b/c")).toEqual({ path: "a b/c" });
  });
});

describe("path segment expansion {/var}", () => {
  it("expands RFC 6570 §3.2.6 examples", () => {
    expect(expand("{/var}")).toBe("/value");
    expect(expand("{/var,x}/here")).toBe("/value/1024/here");
  });

  it("encodes a slash inside a segment", () => {
    expect(expand("api://items{/id}", { id: "a/b" })).toBe("api://items/a%2Fb");
  });

  it("matches one segment per variable", () => {
    expect(match("api://items{/kind,id}", "api://items/book/7")).toEqual({ kind: "book", id: "7" });
    expect(match("api://items{/id}", "api://items/7/8")).toBeUndefined();
  });
});

describe("form-style query expansion {?a,b}", () => {
  it("expands RFC 6570 §3.2.8 examples", () => {
    expect(expand("{?x,y}")).toBe("?x=1024&y=768");
    expect(expand("search://q{?x,y}", { y: "768" })).toBe("search://q?y=768");
  });

  it("expands to nothing when no variable is defined", () => {
    expect(expand("search://q{?x,y}", {})).toBe("search://q");
  });

  it("encodes query values", () => {
    expect(expand("search://q{?term}", { term: "a&b c" })).toBe("search://q?term=a%26b%20c");
  });

  it("matches all, some or none of the query variables", () => {
    const t = "search://q{?a,b}";
    expect(match(t, "search://q?a=1&b=2")).toEqual({ a: "1", b: "2" });
    expect(match(t, "search://q?a=1")).toEqual({ a: "1" });
    expect(match(t, "search://q?b=2")).toEqual({ b: "2" });
    expect(match(t, "search://q")).toEqual({});
  });

  it("decodes query values when matching", () => {
    expect(match("search://q{?term}", "search://q?term=a%26b%20c")).toEqual({ term: "a&b c" });
  });

  it("does not match an unknown query variable", () => {
    expect(match("search://q{?a,b}", "search://q?c=3")).toBeUndefined();
  });
});

describe("other operators", () => {
  it("expands and matches a fragment {#var} and a label {.var}", () => {
    expect(expand("{#path}")).toBe("#/foo/bar");
    expect(expand("X{.var}")).toBe("X.value");
    expect(match("doc://page{#section}", "doc://page#intro")).toEqual({ section: "intro" });
    expect(match("file://name{.ext}", "file://name.txt")).toEqual({ ext: "txt" });
  });
});
