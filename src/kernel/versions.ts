/** The protocol versions an edge serves, from its resolved options: what the Worker, `server/discover` and features (the Server Card) name. */
import { VERSIONS_2026, SUPPORTED_VERSIONS } from "../mcp/definition/versions";
import type { ResolvedOptions } from "./options";

const served = new WeakMap<ResolvedOptions, readonly string[]>();

/** The protocol versions this server serves, newest first (`data.supported` of -32022, discover's list); computed once per server. */
export function servedVersions(options: ResolvedOptions): readonly string[] {
  let versions = served.get(options);
  if (!versions) {
    versions = Object.freeze([...(options.eras.era2026 ? VERSIONS_2026 : []), ...(options.eras.era2025 ? SUPPORTED_VERSIONS : [])]);
    served.set(options, versions);
  }
  return versions;
}
