/**
 * CCS_API_VERSION through the real process: `bun src/server.ts` reads it from
 * its environment and the Contest API answers in that release; a release it
 * does not serve stops the start with one line naming the setting. Port 3262
 * (this suite's); no sandbox is used (isolate is absent here, JUDGE_IN_PROCESS=false).
 */
import { expect, test } from "bun:test";
import { refusedStart, spawnServerProcess, type ServerProcessOptions } from "../server-process.ts";

const PORT = 3262;

/** The server on this file's port and box ids (4300-4303, never a default server's 0-99), with `extra` settings. */
function options(extra: Record<string, string>): ServerProcessOptions {
  return {
    name: "h2-ccs-server",
    port: PORT,
    boxIdStart: 4300,
    boxIdCount: 4,
    env: { SANDBOX: "isolate", ISOLATE_BIN: "/nonexistent/no-isolate", JUDGE_IN_PROCESS: "false", ...extra },
  };
}

test("CCS_API_VERSION=2026-01: the running server's Contest API declares and speaks 2026-01", async () => {
  const server = spawnServerProcess(options({ CCS_API_VERSION: "2026-01" }));
  const proc = server.proc;
  try {
    // Generous: the machine is shared; only the answer is asserted, never how soon it came.
    const deadline = Date.now() + 60_000;
    let info: any = null;
    while (Date.now() < deadline && info === null) {
      if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}: ${await server.output()}`);
      info = await fetch(`http://127.0.0.1:${PORT}/api/ccs/`).then(
        (r) => r.json(),
        () => null,
      );
      if (info === null) await Bun.sleep(250);
    }
    expect(info).toEqual({ version: "2026-01", version_url: "https://ccs-specs.icpc.io/2026-01/contest_api", provider: { name: "CodeArena" } });
    // The checker's error case answers in the spec's error shape there too.
    const missing = await fetch(`http://127.0.0.1:${PORT}/api/ccs/contests/nope/event-feed?since_id=999999`);
    expect([missing.status, (await missing.json()).code]).toEqual([404, 404]);
  } finally {
    await server.stop();
    await server.cleanup();
  }
}, 90_000);

test("a release the server does not speak stops the start with one line naming CCS_API_VERSION", async () => {
  const { code, output: stderr } = await refusedStart(options({ CCS_API_VERSION: "2022-07" }));
  expect(code).toBe(1);
  expect(stderr).toContain("CCS_API_VERSION: expected one of 2023-06, 2026-01");
  expect(stderr).not.toMatch(/^\s+at /m);
}, 60_000);
