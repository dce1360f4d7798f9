/**
 * Makes an edge's kernel from its server, options and features: the server as this edge serves it
 * (its features' methods and extensions added to a view of its own), the seams the features fill,
 * and the object classes they bring. Checked once, when createMcpEdge runs: a clash is a TypeError.
 */
import type { McpServer } from "../mcp/definition/server";
import { recordObserver } from "../mcp/operations/observe";
import { hubBound } from "../mcp/handlers/discover";
import type { ResolvedOptions } from "./options";
import { LayeredMap } from "./layered-map";
import type { Admission, Feature, FeatureSeams, Kernel, FeatureObject, StreamLane } from "./feature";

/** What createMcpEdge hands the kernel: the feature list as the user passed it (a list: resolveOptions checked), checked here. */
export interface KernelParts<Env> {
  server: McpServer<Env>;
  options: ResolvedOptions;
  features: readonly Feature<Env>[];
}

/** An edge's kernel, and the object classes of its features (`edge.objects`). */
export interface BuiltKernel<Env> {
  kernel: Kernel<Env>;
  objects: Readonly<Record<string, FeatureObject>>;
}

const SEAMS = [
  "tasks",
  "users",
  "sealer",
  "observer",
  "gate",
  "listen",
  "hubLink",
  "legacy",
] as const satisfies readonly (keyof FeatureSeams)[];

function checkFeatures<Env>(features: readonly Feature<Env>[]): void {
  const names = new Set<string>();
  for (const feature of features) {
    if (typeof feature !== "object" || feature === null || typeof feature.name !== "string" || feature.name === "")
      throw new TypeError("mcp-edge option features: each feature is an object with a name (made by sessions(), tasks(), events(), …)");
    if (names.has(feature.name)) throw new TypeError(`mcp-edge option features: "${feature.name}" is given twice`);
    names.add(feature.name);
  }
}

/** The seams the features fill; two features filling one seam is a TypeError naming both. */
function fillSeams<Env>(features: readonly Feature<Env>[]): FeatureSeams {
  const seams: FeatureSeams = {};
  const filledBy: Partial<Record<keyof FeatureSeams, string>> = {};
  for (const feature of features) {
    for (const seam of SEAMS) {
      const value = feature.seams?.[seam];
      if (value === undefined) continue;
      if (filledBy[seam]) throw new TypeError(`mcp-edge option features: "${feature.name}" and "${filledBy[seam]}" both serve ${seam}`);
      filledBy[seam] = feature.name;
      (seams as Record<string, unknown>)[seam] = value;
    }
  }
  return seams;
}

/**
 * The server as this edge serves it: a view of the definition with the edge's `ctx.user` stores (read
 * from its seams, which the deprecated `userObject(edge)` may fill after the edge is made) and,
 * when features add methods or extensions, method, notification and extension tables of its own
 * (tools, resources and prompts stay shared), so another edge of the same server never sees them.
 */
function serverView<Env>(server: McpServer<Env>, features: readonly Feature<Env>[], seams: FeatureSeams): McpServer<Env> {
  const view = Object.create(server) as McpServer<Env>;
  Object.defineProperty(view, "users", { get: () => seams.users });
  const adds = features.filter((f) => (f.methods?.length ?? 0) > 0 || Object.keys(f.extensions ?? {}).length > 0);
  if (adds.length === 0) return view;
  Object.defineProperties(view, {
    methods: { value: new LayeredMap(server.methods) },
    notifications: { value: new LayeredMap(server.notifications) },
    extensions: { value: new LayeredMap(server.extensions) },
  });
  for (const feature of adds) {
    for (const [id, settings] of Object.entries(feature.extensions ?? {})) view.extension(id, settings);
    for (const definition of feature.methods ?? []) view.add(definition);
  }
  return view;
}

/** The objects of every feature, made once for this kernel; two features bringing one name is a TypeError. */
function objectsOf<Env>(kernel: Kernel<Env>): Record<string, FeatureObject> {
  const objects: Record<string, FeatureObject> = {};
  for (const feature of kernel.features) {
    for (const [name, cls] of Object.entries(feature.objects?.(kernel) ?? {})) {
      if (Object.hasOwn(objects, name)) throw new TypeError(`mcp-edge option features: two features bring the object class ${name}`);
      objects[name] = cls;
    }
  }
  return objects;
}

export function buildKernel<Env>(parts: KernelParts<Env>): BuiltKernel<Env> {
  checkFeatures(parts.features);
  const seams = fillSeams(parts.features);
  const server = serverView(parts.server, parts.features, seams);
  const observer = seams.observer?.();
  if (observer) recordObserver(server, observer);
  const kernel: Kernel<Env> = {
    server,
    options: parts.options,
    observer,
    features: parts.features,
    seams,
    gate: seams.gate?.(parts.options),
  };
  return { kernel, objects: objectsOf(kernel) };
}

/** The lane of a request method some feature answers with its own Response (`streams`), if any. */
export function streamLaneOf<Env>(kernel: Kernel<Env>, method: string): StreamLane<Env> | undefined {
  for (const feature of kernel.features) {
    // Own keys only: a method named "constructor" or "toString" is no feature's lane.
    if (feature.streams && Object.hasOwn(feature.streams, method)) return feature.streams[method];
  }
  return undefined;
}

/**
 * The first refusal of the edge's features' `admit` checks for one POST's requests, run in the features'
 * order; undefined when every check admits it. The endpoints' lanes and the 2024-11-05 transport's POST
 * run it alike.
 */
export async function admitRefusal<Env>(kernel: Kernel<Env>, admission: Admission<Env>): Promise<Response | undefined> {
  for (const feature of kernel.features) {
    if (!feature.admit) continue;
    const refused = await feature.admit(admission);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * Whether this edge's clients hear resource updates and list changes, and so are offered them (a 2025
 * session's `initialize`, a 2026 `server/discover`): a feature serves the hub (`hub()`, or the deprecated
 * `hubObject(edge)`, each filling the sessions' link and the listen lane) and MCP_HUB is bound.
 */
export function clientsHearHub(seams: FeatureSeams, env: unknown): boolean {
  return seams.hubLink !== undefined && hubBound(env);
}
