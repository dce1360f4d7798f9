// `mcp-edge doctor` against a hostile server (test/e2e/helpers/hostile-server.mjs, a raw socket
// on 127.0.0.1): whatever a server answers, or does not, the doctor ends, exits, reports a finding
// and prints the server's words harmlessly. A doctor that hangs is killed by the harness, and the
// run then rejects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DoctorRun, runDoctor } from "../helpers/doctor.mjs";
import { startHostileServer } from "../helpers/hostile-server.mjs";

let hostile: Awaited<ReturnType<typeof startHostileServer>>;
beforeAll(async () => {
  hostile = await startHostileServer();
});
afterAll(async () => {
  await hostile?.close();
});

const KILL_AFTER_MS = 40_000;

function doctor(mode: string, ...args: string[]): Promise<DoctorRun> {
  return runDoctor([`${hostile.url}/${mode}/mcp`, ...args], { killAfterMs: KILL_AFTER_MS });
}

function statusOf(run: DoctorRun, check: string): string | undefined {
  return run.report?.findings.find((f) => f.check === check)?.status;
}

describe("a server that never finishes", () => {
  it("a response head dribbled byte by byte ends at --timeout (node:http's idle timeout never would)", async () => {
    // The foreign-Host request goes through node:http, whose idle timeout each byte resets.
    const run = await doctor("dribble", "--json", "--timeout", "1500");
    expect(run.stderr).toBe("");
    expect(run.report?.findings.find((f) => f.check === "dns-rebinding")).toMatchObject({
      status: "ok",
      message: expect.stringContaining("no answer in time"),
    });
    expect(statusOf(run, "tools-2025")).toBe("ok");
  }, 60_000);

  it("an endless body: the doctor prints its findings and exits (nothing it opened keeps it alive)", async () => {
    const run = await doctor("endless", "--json", "--timeout", "1500");
    expect(run.stderr).toBe("");
    expect(run.report?.findings.find((f) => f.check === "dns-rebinding")?.status).toBe("fail");
    expect(statusOf(run, "tools-2026")).toBe("ok");
  }, 60_000);

  it("every answer stalled: each request is a failed finding (no stack trace), the run ends, exit code 1", async () => {
    const run = await doctor("stall", "--json", "--timeout", "1000");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(statusOf(run, "era-2026")).toBe("ok");
    expect(run.report?.findings.find((f) => f.check === "eras")).toMatchObject({
      status: "fail",
      message: "the server's answer could not be read: no answer in time (--timeout)",
    });
  }, 60_000);

  it("--deadline bounds the whole run: the checks not finished are named in a failed finding", async () => {
    const run = await doctor("stall", "--json", "--timeout", "1500", "--deadline", "2500");
    expect(run.code).toBe(1);
    const deadline = run.report?.findings.find((f) => f.check === "deadline");
    expect(deadline).toMatchObject({ status: "fail", message: expect.stringContaining("--deadline (2500 ms); not finished: ") });
    expect(deadline?.fix).toContain("wrangler tail");
  }, 60_000);
});

describe("answers of the wrong shape", () => {
  it("a supportedVersions that is not a list is a failed era-2026 finding, not a stack trace", async () => {
    const run = await doctor("bad-versions", "--json");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.report?.findings.find((f) => f.check === "era-2026")).toMatchObject({
      status: "fail",
      message: expect.stringContaining('supportedVersions is not a list of version strings (got "2026-07-28")'),
    });
    expect(statusOf(run, "tools-2025")).toBe("ok");
  });

  it("a null tool fails tools/list in both eras, naming it; JSON null and [1] as documents are no documents", async () => {
    const run = await doctor("null-tool", "--json");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    for (const check of ["tools-2026", "tools-2025"])
      expect(run.report?.findings.find((f) => f.check === check)).toMatchObject({
        status: "fail",
        message: expect.stringContaining("tool #1 is null, not an object"),
      });
    expect(statusOf(run, "auth-metadata")).toBe("skip");
    expect(run.report?.findings.find((f) => f.check === "server-card")?.message).toContain("not a JSON object");
  });
});

describe("server text with terminal escape sequences", () => {
  it("prints control characters visibly: nothing erases a line, moves the cursor or starts a line of its own", async () => {
    const run = await doctor("escapes");
    expect(run.code).toBe(1);
    // No raw control character or bidirectional override reaches the terminal.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(run.stdout).toContain("evil\\x1b[2K\\r\\x1b[1Aok    state-secret: all good\\x07\\u202e");
    // The server's "ok" lines stay inside the finding that quotes them.
    expect(run.stdout).not.toMatch(/^ok +state-secret: all good/m);
    expect(run.stdout).not.toMatch(/^ok +tools-2026: 3 tool/m);
    expect(run.stdout).toMatch(/^FAIL +tools-2026: .*boom\\x1b/m);
  });

  it("--json carries the server's text as it was (JSON escapes it)", async () => {
    const run = await doctor("escapes", "--json");
    expect(run.stdout).not.toContain("\u001b");
    expect(run.report?.findings.find((f) => f.check === "era-2026")?.message).toContain("evil\u001b[2K");
  });
});
