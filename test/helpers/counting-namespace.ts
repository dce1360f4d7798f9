/**
 * Counts the calls a Worker makes to session objects: wraps the env's MCP_SESSION namespace so
 * every call on a stub it hands out (an RPC method name, or "fetch") is pushed to `calls`.
 * Used by test/http/durable-object-round-trips.test.ts and by the benchmark's demo
 * entry (bench/demo/index.ts), so both count the same way.
 */
import type { EdgeEnv } from "../../src/http/runtime";

export function countingEnv<Env extends EdgeEnv>(env: Env, calls: string[]): Env {
  const real = env.MCP_SESSION;
  if (!real) return env;
  const namespace = new Proxy(real, {
    get(target, prop) {
      if (prop === "get") {
        return (id: DurableObjectId) => {
          const stub = target.get(id);
          return new Proxy(stub, {
            get(s, name) {
              if (typeof name !== "string" || name === "then") return Reflect.get(s, name);
              return (...args: unknown[]) => {
                calls.push(name);
                // Call through the stub itself: an RPC method detached from its stub cannot be applied.
                return (s as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
              };
            },
          });
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...env, MCP_SESSION: namespace };
}
