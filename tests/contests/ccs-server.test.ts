/**
 * CCS_API_VERSION through the real process: `bun src/server.ts` reads it from
 * its environment and the Contest API answers in that release; a release it
 * does not serve stops the start with one line naming the setting. Port 3262
 * (this suite's); no sandbox is used (isolate is absent here, JUDGE_IN_PROCESS=false).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
const PORT = 3262;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function spawnServer(extra: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "oj-h2-ccs-server-"));
  dirs.push(dir, `${dir}-boxes`);
  return Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? dir,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      DATABASE_URL: `file:${join(dir, "app.db")}`,
      CLIENT_DIST: join(dir, "no-client"),
      SANDBOX_ROOT: `${dir}-boxes`,
      // Never a default server's box ids (0-99): the suite runs beside a running product.
      ISOLATE_BOX_ID_START: "4300",
      ISOLATE_BOX_ID_COUNT: "4",
      SANDBOX: "isolate",
      ISOLATE_BIN: join(dir, "no-isolate"),
      JUDGE_IN_PROCESS: "false",
      LOG_LEVEL: "warn",
      ...extra,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
}

test("CCS_API_VERSION=2026-01: the running server's Contest API declares and speaks 2026-01", async () => {
  const proc = spawnServer({ CCS_API_VERSION: "2026-01" });
  try {
    // Generous: the machine is shared; only the answer is asserted, never how soon it came.
    const deadline = Date.now() + 60_000;
    let info: any = null;
    while (Date.now() < deadline && info === null) {
      if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
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
    proc.kill();
    await proc.exited;
  }
}, 90_000);

test("a release the server does not speak stops the start with one line naming CCS_API_VERSION", async () => {
  const proc = spawnServer({ CCS_API_VERSION: "2022-07" });
  expect(await proc.exited).toBe(1);
  const stderr = await new Response(proc.stderr).text();
  expect(stderr).toContain("CCS_API_VERSION: expected one of 2023-06, 2026-01");
  expect(stderr).not.toMatch(/^\s+at /m);
}, 60_000);
