/**
 * What both `bun test` runs of scripts/test.sh share, done once before they
 * start (either would otherwise do it itself, and two at once would do it
 * twice): the client build the browser tests serve (client/dist, rebuilt only
 * when a client source is newer) and the precompiled bits/stdc++.h the judge
 * tests and every test server use (SHARED_DATA_DIR; test servers take it as
 * hard links, tests/server-process.ts). Prints what it did and how long it took.
 *
 * Run: `bun tests/prepare.ts` (scripts/test.sh does).
 */
import { ensureClientBuilt } from "../e2e/harness.ts";
import { preparePch, SHARED_DATA_DIR } from "./judge/fixtures.ts";

const t0 = performance.now();
ensureClientBuilt();
const t1 = performance.now();
await preparePch().catch((err) => {
  // C++ still compiles without it (slower); the judge tests say so themselves.
  console.log(`prepare: no precompiled header (${String(err)})`);
});
const t2 = performance.now();
console.log(`prepare: client/dist current (${((t1 - t0) / 1000).toFixed(1)} s); precompiled header in ${SHARED_DATA_DIR} current (${((t2 - t1) / 1000).toFixed(1)} s)`);
