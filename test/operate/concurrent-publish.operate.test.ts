/**
 * Requests served at once by one isolate share its ordered outbox to the hub: a hand-off
 * (`publish`) from each of them reaches the listen stream, none waits on another's call, and
 * none fails ("Cannot perform I/O on behalf of a different request").
 */
import { expect, it } from "vitest";
import { openListen, updatesRead } from "../helpers/listen";
import { operateServer } from "../servers/operate/entry";
import { callIn, textOf } from "./helpers";
import { WATCHED } from "../servers/operate/watched";

it("every concurrent request's publish hand-off reaches the listen stream", async () => {
  const { stream } = await openListen({ server: operateServer, id: "concurrent", notifications: { resourceSubscriptions: [WATCHED] } });
  const count = 40;
  // publishes_interactive publishes with `publish` (returns once handed off) from the Worker on 2026-07-28.
  const answers = await Promise.all(Array.from({ length: count }, () => callIn("worker 2026", "publishes_interactive")));
  expect(answers.map(textOf)).toEqual(Array.from({ length: count }, () => "published"));
  expect(await updatesRead(stream, count)).toBe(count);
  await stream.cancel();
});
