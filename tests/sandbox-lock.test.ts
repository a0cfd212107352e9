/**
 * Two judging processes on one host never share box ids by accident
 * (src/sandbox.ts lockSandbox): the second refuses to start naming the
 * setting, instead of both using the same boxes and turning submissions into
 * IE. Through real processes: a lock holder in a child process, and two
 * `bun src/worker.ts` started side by side with the same settings.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { loadConfig } from "../src/config.ts";
import { lockSandbox } from "../src/sandbox.ts";
import { unmountUnder } from "./mounts.ts";

const ROOT = join(import.meta.dir, "..");
const work = mkdtempSync(join(tmpdir(), "oj-boxlock-"));
chmodSync(work, 0o755);
const children: Subprocess[] = [];
afterAll(async () => {
  for (const c of children) {
    c.kill("SIGKILL");
    await c.exited;
  }
  unmountUnder(work);
  rmSync(work, { recursive: true, force: true });
});

const configFor = (start: number, pool: number, root: string) =>
  loadConfig({ NODE_ENV: "test", ISOLATE_BOX_ID_START: String(start), ISOLATE_BOX_ID_COUNT: "10", SANDBOX_POOL_SIZE: String(pool), SANDBOX_ROOT: root, DATA_DIR: join(work, "data") });

/** A child process holding lockSandbox for (start, pool, root) with box locks in `dir`, until killed. */
async function holder(dir: string, start: number, pool: number, root: string): Promise<Subprocess> {
  const script = `
    import { loadConfig } from ${JSON.stringify(join(ROOT, "src/config.ts"))};
    import { lockSandbox } from ${JSON.stringify(join(ROOT, "src/sandbox.ts"))};
    lockSandbox(loadConfig({ NODE_ENV: "test", ISOLATE_BOX_ID_START: "${start}", ISOLATE_BOX_ID_COUNT: "10", SANDBOX_POOL_SIZE: "${pool}", SANDBOX_ROOT: ${JSON.stringify(root)} }), ${JSON.stringify(dir)});
    console.log("locked");
    setInterval(() => {}, 1000);
  `;
  const p = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "inherit" });
  children.push(p);
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("locked");
  return p;
}

describe("box-range locks", () => {
  test("a shared SANDBOX_ROOT or overlapping box ids are refused while the holder lives, naming the setting; a dead holder's locks are taken over", async () => {
    const dir = mkdtempSync(join(work, "locks-"));
    const rootA = join(work, "root-a");
    const rootB = join(work, "root-b");
    const held = await holder(dir, 3750, 2, rootA); // boxes 3750, 3751 and root A
    expect(existsSync(join(dir, "online-judge-box-3750.lock"))).toBe(true);
    expect(existsSync(join(dir, "online-judge-box-3752.lock"))).toBe(false); // only the pool's boxes
    expect(existsSync(join(rootA, ".judge.lock"))).toBe(true);

    expect(() => lockSandbox(configFor(3750, 2, rootB), dir)).toThrow(`box 3750 is in use by another judging process on this host (pid ${held.pid})`);
    expect(() => lockSandbox(configFor(3751, 4, rootB), dir)).toThrow("ISOLATE_BOX_ID_START=3751");
    expect(() => lockSandbox(configFor(3752, 2, rootA), dir)).toThrow(`SANDBOX_ROOT ${rootA} is in use by another judging process on this host (pid ${held.pid})`);
    // A refused claim leaves nothing of its own behind.
    expect(existsSync(join(dir, "online-judge-box-3753.lock"))).toBe(false);
    expect(existsSync(join(rootB, ".judge.lock"))).toBe(false);

    const disjoint = lockSandbox(configFor(3752, 2, rootB), dir);
    disjoint();
    expect(existsSync(join(dir, "online-judge-box-3752.lock"))).toBe(false);

    held.kill("SIGKILL");
    await held.exited;
    const mine = lockSandbox(configFor(3750, 2, rootA), dir);
    mine();
  });

  test("a worker started beside another with the same settings refuses to start and says which setting to change", async () => {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      DATABASE_URL: `file:${join(work, "worker.db")}`,
      DATA_DIR: join(work, "worker-data"),
      SANDBOX: "bwrap",
      SANDBOX_ROOT: join(work, "boxes"),
      ISOLATE_BOX_ID_START: "3770",
      ISOLATE_BOX_ID_COUNT: "4",
      SANDBOX_POOL_SIZE: "1",
    };
    const first = Bun.spawn(["bun", "src/worker.ts"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
    children.push(first);
    let log = "";
    const reader = (first.stdout as ReadableStream<Uint8Array>).getReader();
    const deadline = Date.now() + 30_000;
    while (!log.includes("worker: started") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      log += new TextDecoder().decode(value);
    }
    expect(log).toContain("worker: started");

    const refused = async (extra: Record<string, string>) => {
      const p = Bun.spawn(["bun", "src/worker.ts"], { cwd: ROOT, env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
      children.push(p);
      const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
      expect(code).toBe(1);
      return err;
    };
    // Its own SANDBOX_ROOT but the same box ids (the default ISOLATE_BOX_ID_START beside a server, say).
    const sameBoxes = await refused({ SANDBOX_ROOT: join(work, "boxes-2") });
    expect(sameBoxes).toContain(`box 3770 is in use by another judging process on this host (pid ${first.pid})`);
    expect(sameBoxes).toContain("ISOLATE_BOX_ID_START=3770");
    // Its own box ids but the same SANDBOX_ROOT.
    const sameRoot = await refused({ ISOLATE_BOX_ID_START: "3780" });
    expect(sameRoot).toContain(`SANDBOX_ROOT ${join(work, "boxes")} is in use by another judging process on this host (pid ${first.pid})`);
    expect(first.exitCode).toBeNull(); // the first one is untouched

    first.kill("SIGTERM");
    expect(await first.exited).toBe(0);
  }, 60_000);
});
