/** The server's side of the sandbox runner: its options, read from the config once at start. */
import type { SandboxOptions } from "../isolate/index.ts";
import type { Config } from "./config.ts";

/**
 * The sandbox runner's options from the parsed config: SANDBOX, SANDBOX_POOL_SIZE,
 * ISOLATE_BOX_ID_START, ISOLATE_BOX_ID_COUNT, ISOLATE_BIN, SANDBOX_ROOT, DATA_DIR, NODE_ENV.
 * @example const selection = await createSandbox(sandboxOptions(config), (m) => log.info(m));
 */
export function sandboxOptions(config: Config): SandboxOptions {
  return {
    mode: config.SANDBOX,
    poolSize: config.SANDBOX_POOL_SIZE,
    boxIdStart: config.ISOLATE_BOX_ID_START,
    boxIdCount: config.ISOLATE_BOX_ID_COUNT,
    isolateBin: config.ISOLATE_BIN,
    root: config.SANDBOX_ROOT,
    dataDir: config.DATA_DIR,
    production: config.NODE_ENV === "production",
  };
}
