// Keeps functions short and narrow: none in src/ or durable-objects/ may span more than 60 lines (its body,
// from the opening brace to the closing one), so a reader sees each step of a request's path whole, and none
// may declare more than 4 parameters, so a request travels as one value (or a small options object) rather
// than as positional pieces. Function types (signatures in interfaces and type aliases) are not counted.
// Tables are not procedures: the few listed in TABLES are exempt, each with its reason.
// Part of `npm run lint`; exit 1 with one line per function over a limit.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dirname, "..");
const MAX_LINES = 60;
const MAX_PARAMETERS = 4;
const TABLES = {
  "src/wire/refusals.ts:refusalRow": "the one refusal table: a case per row (reason, status, code, message)",
};

function* sources(dir) {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** A function's name as the report gives it: its own, its variable's or property's, else "(anonymous)". */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)))
    return parent.name.getText();
  return "(anonymous)";
}

/** Functions with a body of their own: declarations, expressions, arrows, methods, accessors, constructors. */
function isImplementation(node) {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

const tooLong = [];
const tooWide = [];
for (const dir of ["src", "durable-objects"]) {
  for (const file of sources(dir)) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body && ts.isBlock(node.body)) {
        const first = source.getLineAndCharacterOfPosition(node.body.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.body.getEnd()).line;
        const lines = last - first + 1;
        const key = `${relative(ROOT, join(ROOT, file))}:${nameOf(node)}`;
        if (lines > MAX_LINES && !TABLES[key]) tooLong.push(`${file}:${first + 1} ${nameOf(node)}: ${lines} lines`);
      }
      if (isImplementation(node)) {
        const count = node.parameters.filter((parameter) => parameter.name.getText() !== "this").length;
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
        if (count > MAX_PARAMETERS) tooWide.push(`${file}:${line + 1} ${nameOf(node)}: ${count} parameters`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

if (tooLong.length) {
  console.error(
    `${tooLong.length} function(s) over ${MAX_LINES} lines (split them by step, or name a table in scripts/check-functions.mjs):`,
  );
  console.error(tooLong.map((line) => `  ${line}`).join("\n"));
}
if (tooWide.length) {
  console.error(`${tooWide.length} function(s) over ${MAX_PARAMETERS} parameters (pass the request's value, or a small options object):`);
  console.error(tooWide.map((line) => `  ${line}`).join("\n"));
}
if (tooLong.length || tooWide.length) process.exit(1);
console.log(`functions: none over ${MAX_LINES} lines or ${MAX_PARAMETERS} parameters in src/ and durable-objects/`);
