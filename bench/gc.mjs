import v8 from "node:v8";
import vm from "node:vm";

/**
 * A real garbage collection for the benchmarks' heap samples, without re-spawning node
 * with --expose-gc; undefined if the runtime refuses.
 */
export function exposeGc() {
  if (typeof globalThis.gc === "function") return globalThis.gc;
  try {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc");
  } catch {
    return undefined;
  }
}
