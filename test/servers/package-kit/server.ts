/**
 * The package-kit server (entry.ts serves it; open-entry.ts as a test entry deployed by mistake): what a user
 * tests with mcp-edge/testing once past the first hour, written with the public API only. The test verifier
 * gives requests a principal (ctx.user, scopes); tools publish to listen and GET streams, report progress and
 * logs, and run as tasks.
 */
import { z } from "zod";
import { defineServer, type EdgeEnv, text, toolError } from "../../../src/index";
import { notifyListChanged, notifyResourceUpdated } from "../../../src/features/hub/index";

const NOTES_URI = "file:///notes.txt";

export const server = defineServer<EdgeEnv>({ name: "package-kit-test", version: "1.0.0", listChanged: true })
  .resource(NOTES_URI, { name: "notes", mimeType: "text/plain" }, (uri) => ({ uri, text: "notes" }))
  .tool("visit", { description: "Counts the caller's visits in ctx.user" }, async (_args, ctx) => {
    const visits = ((await ctx.user.get<number>("visits")) ?? 0) + 1;
    await ctx.user.put("visits", visits);
    return { content: [text(`${ctx.user.subject} (${ctx.principal?.scopes.join(" ")}) visit ${visits}`)] };
  })
  .tool("admin", { description: "Needs the admin scope" }, () => ({ content: [text("admin ok")] }))
  .tool("touch", { description: "Announces a change of the notes and of the tool list" }, async (_args, ctx) => {
    await notifyResourceUpdated(ctx.env, NOTES_URI);
    await notifyListChanged(ctx.env, "tools");
    return { content: [text("touched")] };
  })
  .interactiveTool("work", { description: "Reports progress and logs" }, async (_args, ctx) => {
    await ctx.progress(1, 2, "half");
    await ctx.log("info", "working");
    await ctx.progress(2, 2, "done");
    return { content: [text("worked")] };
  })
  .interactiveTool(
    "approve",
    { description: "Asks for approval, as a task when the client chooses", input: { what: z.string() }, task: "optional" },
    async ({ what }, ctx) => {
      const answer = await ctx.elicit(`Approve ${what}?`, z.object({ yes: z.boolean() }));
      if (answer.action !== "accept") return toolError("not approved");
      return { content: [text(answer.content.yes ? `${what} approved` : `${what} refused`)] };
    },
  )
  .tool("sleep", { description: "Waits ms, cancellable", input: { ms: z.number() }, task: "optional" }, async ({ ms }, ctx) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      });
    });
    return { content: [text(`slept ${ms}`)] };
  });
