/**
 * Install-time sandbox preparation (called by scripts/install.sh; idempotent):
 * precompiles bits/stdc++.h for exactly the C++ flags into <DATA_DIR>/pch,
 * which the sandbox mounts read-only at /pch. A second run with the same
 * flags and g++ does nothing. The server also builds it lazily when missing.
 *   bun scripts/prepare-sandbox.ts
 */
import { loadConfig } from "../src/config.ts";
import { ensurePch } from "../isolate/pch.ts";

const config = loadConfig(process.env);
try {
  const r = await ensurePch(config.DATA_DIR);
  console.log(
    r.built
      ? `prepare-sandbox: precompiled bits/stdc++.h into ${r.dir} in ${(r.buildMs / 1000).toFixed(1)} s`
      : `prepare-sandbox: precompiled header in ${r.dir} is current`,
  );
} catch (err) {
  // Not fatal: C++ compiles without it, only slower. Say what to fix.
  console.warn(`prepare-sandbox: could not precompile bits/stdc++.h (${(err as Error).message}); install g++ and run again`);
}
