// Runs every check in order, each one guarded: an answer a check cannot read becomes a failed
// finding of that check (never a stack trace), and when the --deadline passes the run stops,
// says which checks did not finish, and closes every connection still open.
import { cause, Doctor } from "./client.mjs";
import { checkEras, checkForeignHost, checkOrigins, checkReachable, checkStateSecret, checkTasks, checkTransport } from "./checks.mjs";
import { checkDirectory } from "./directory.mjs";
import { checkListen } from "./listen.mjs";
import { checkProtectedResource, checkServerCard, checkTestAuth } from "./metadata.mjs";

/** The checks after the first answer, each under the name its findings use. */
const SERVED = [
  ["eras", checkEras],
  ["origin", checkOrigins],
  ["dns-rebinding", checkForeignHost],
  ["state-secret", checkStateSecret],
  ["listen", checkListen],
  ["tasks", checkTasks],
];
const METADATA = [
  ["auth-metadata", checkProtectedResource],
  ["server-card", checkServerCard],
  ["test-auth", checkTestAuth],
];

/** Runs one check; true when the run may go on (the deadline has not passed). */
async function step(doctor, name, check, notRun) {
  if (doctor.expired()) {
    notRun.push(name);
    return false;
  }
  try {
    await check(doctor);
  } catch (error) {
    if (doctor.expired()) {
      notRun.push(name);
      return false;
    }
    doctor.add(name, "fail", `the server's answer could not be read: ${cause(error)}`);
  }
  return true;
}

async function reachable(doctor) {
  try {
    return await checkReachable(doctor);
  } catch (error) {
    if (!doctor.expired()) doctor.add("reachable", "fail", `the server's first answer could not be read: ${cause(error)}`);
    return false;
  }
}

/** Runs every check; the findings in order. */
export async function runDoctor(options) {
  const doctor = new Doctor(options);
  const notRun = [];
  try {
    checkTransport(doctor);
    if (doctor.url.protocol !== "http:" && doctor.url.protocol !== "https:") return doctor.findings;
    const served = await reachable(doctor);
    const steps = served ? [...SERVED, ...METADATA] : doctor.metadataOnly ? METADATA : [];
    if (options.directory && (served || doctor.metadataOnly)) steps.push(["directory", checkDirectory]);
    for (const [name, check] of steps) await step(doctor, name, check, notRun);
    if (doctor.expired())
      doctor.add(
        "deadline",
        "fail",
        `the doctor stopped at its --deadline (${options.deadlineMs} ms)${notRun.length > 0 ? `; not finished: ${notRun.join(", ")}` : ""}`,
        "The server answers too slowly or never finishes an answer: look at its logs (npx wrangler tail), or give a longer --deadline",
      );
    return doctor.findings;
  } finally {
    doctor.close();
  }
}
