#!/usr/bin/env node
// npm create mcp-edge@latest [directory] [--mcp-edge <version|tarball>] [--no-install]
// Writes a remote MCP server project that runs and tests itself: the files in template/ with
// the project's name, a .gitignore, and a .dev.vars holding a fresh MCP_STATE_SECRET; then
// `npm install` unless --no-install. No dependencies: Node's standard library only.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const template = join(here, "template");
const own = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
/** The token template files use for the project's name. */
const NAME = "my-mcp-server";

const USAGE = `Usage: npm create mcp-edge@latest [directory] -- [options]
       npx create-mcp-edge [directory] [options]

Writes a remote MCP server for Cloudflare Workers into <directory> (default: ${NAME}).

Options:
  --mcp-edge <spec>  the mcp-edge dependency: a version or range (default ^${own.version}),
                     or the path of a packed tarball (mcp-edge-x.y.z.tgz)
  --no-install       write the files only; run npm install yourself
  -h, --help         this text`;

class UsageError extends Error {}

/** The oldest Node the project runs on (wrangler and vitest need it; package.json "engines" says the same). */
const MIN_NODE = [22, 12];

/** A one-line refusal when this Node is older than MIN_NODE, else undefined. */
function nodeTooOld(version) {
  const [major, minor] = version.split(".").map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return (
    `create-mcp-edge: Node ${version} is too old; the project needs Node >= ${MIN_NODE.join(".")} (wrangler and vitest do). ` +
    "Install Node 22.12 or newer (e.g. nvm install 22), then run npm create mcp-edge@latest again (nothing was written)."
  );
}

function parseArgs(argv) {
  const options = { directory: undefined, mcpEdge: `^${own.version}`, install: true, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") options.help = true;
    else if (arg === "--no-install") options.install = false;
    else if (arg === "--mcp-edge" || arg.startsWith("--mcp-edge=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (!value || value.startsWith("-")) throw new UsageError("--mcp-edge needs a value: a version (0.2.0) or a tarball path");
      options.mcpEdge = value;
    } else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
    else if (options.directory === undefined) options.directory = arg;
    else throw new UsageError(`one directory only (got "${options.directory}" and "${arg}")`);
  }
  return options;
}

/** A package name npm accepts, from the directory's name. */
function packageName(directory) {
  const name = basename(resolve(directory))
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|[-]+$/g, "");
  if (!name) throw new UsageError(`cannot make a package name from "${directory}"; choose a directory name with letters or digits`);
  return name.slice(0, 214);
}

/** The dependency spec: a tarball path becomes an absolute file: spec; anything else goes to npm as given. */
function mcpEdgeSpec(spec) {
  if (/\.(tgz|tar\.gz)$/.test(spec) || spec.startsWith(".") || spec.startsWith("/")) {
    const path = resolve(spec.replace(/^file:/, ""));
    if (!existsSync(path)) throw new UsageError(`--mcp-edge ${spec}: no such file`);
    return `file:${path}`;
  }
  return spec;
}

function* templateFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* templateFiles(path);
    else yield path;
  }
}

function scaffold(options) {
  const directory = resolve(options.directory ?? NAME);
  if (existsSync(directory)) {
    if (!statSync(directory).isDirectory()) throw new UsageError(`${directory} exists and is not a directory`);
    if (readdirSync(directory).length > 0)
      throw new UsageError(`${directory} is not empty; choose a new directory name (nothing was written)`);
  }
  const name = packageName(directory);
  const dependency = mcpEdgeSpec(options.mcpEdge);
  mkdirSync(directory, { recursive: true });
  for (const source of templateFiles(template)) {
    // npm never publishes a file named .gitignore, so the template holds it as "gitignore".
    const path = relative(template, source).replace(/^gitignore$/, ".gitignore");
    let content = readFileSync(source, "utf8").replaceAll(NAME, name);
    if (path === "package.json") {
      const pkg = JSON.parse(content);
      pkg.dependencies["mcp-edge"] = dependency;
      content = `${JSON.stringify(pkg, null, 2)}\n`;
    }
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), content);
  }
  // The local state secret for 2026-07-28 multi round-trip requests; git-ignored.
  writeFileSync(
    join(directory, ".dev.vars"),
    "# Local secrets for `wrangler dev` (read when it starts: restart it after editing).\n" +
      "# MCP_STATE_SECRET signs 2026-07-28 requestState; deployed: openssl rand -hex 32 | npx wrangler secret put MCP_STATE_SECRET\n" +
      `MCP_STATE_SECRET=${randomBytes(32).toString("hex")}\n`,
    { mode: 0o600 },
  );
  return { directory, name };
}

function npmInstall(directory) {
  // Under `npm create`, npm_execpath is the npm that runs us: use the same one.
  const npmCli = process.env.npm_execpath;
  const [command, args] =
    npmCli && /npm-cli\.js$/.test(npmCli)
      ? [process.execPath, [npmCli, "install"]]
      : [process.platform === "win32" ? "npm.cmd" : "npm", ["install"]];
  execFileSync(command, [...args, "--no-audit", "--no-fund"], { cwd: directory, stdio: "inherit", shell: process.platform === "win32" });
}

function main() {
  const tooOld = nodeTooOld(process.versions.node);
  if (tooOld) {
    console.error(tooOld);
    return 1;
  }
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    const { directory } = scaffold(options);
    const shown = relative(process.cwd(), directory) || ".";
    console.log(`create-mcp-edge: wrote ${shown}/ (with .dev.vars holding a fresh MCP_STATE_SECRET)`);
    if (options.install) npmInstall(directory);
    console.log(
      `\nNext:\n  cd ${shown}\n${options.install ? "" : "  npm install\n"}  npm test       # type-checks, then tests both protocol eras in workerd\n  npm run dev    # http://localhost:8787/mcp`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`create-mcp-edge: ${error.message}\n\n${USAGE}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main();
