/** The session options as both session features hand them to the kernel: none when none were given. */
import type { SessionOptions } from "../../kernel/options";

export function sessionCoreOptions(session: SessionOptions): { session?: SessionOptions } {
  return Object.keys(session).length > 0 ? { session } : {};
}
