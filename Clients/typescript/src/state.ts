/** Where a spawned server keeps its state: the arguments `Client.spawn()` adds after `serve --stdio`. */

import { PayRpcError } from "./errors.js";

/**
 * `--data <dataDir>` with `dataDir` (kept there); nothing with `ephemeral: false` (the server's
 * default data directory, kept); else `--ephemeral` (a temporary directory the server removes
 * when it exits), unless `args` already say `--data` or `--ephemeral`. Throws a `PayRpcError`
 * when the choices contradict each other.
 */
export function stateArguments(args: readonly string[], dataDir: string | undefined, ephemeral: boolean | undefined): string[] {
  const namesData = args.some((arg) => arg === "--data" || arg.startsWith("--data="));
  if (dataDir !== undefined) {
    if (ephemeral === true || namesData) {
      throw new PayRpcError("dataDir keeps the state in that directory: pass neither ephemeral: true nor --data with it");
    }
    return ["--data", dataDir];
  }
  if (ephemeral === true && namesData) throw new PayRpcError("ephemeral: true and --data in args exclude each other");
  if (ephemeral === false || namesData || args.includes("--ephemeral")) return [];
  return ["--ephemeral"];
}
