/** DirectoryBox: every backend's box validates its requests and runs one command at a time. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DirectoryBox } from "./boxfs.ts";
import { sandboxFailure } from "./result.ts";
import type { RunRequest, RunResult } from "./types.ts";

const dir = mkdtempSync(join(tmpdir(), "oj-boxfs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class SlowBox extends DirectoryBox {
  runs = 0;
  protected async execute(): Promise<RunResult> {
    this.runs++;
    await Bun.sleep(20);
    return sandboxFailure("not a real run");
  }
}

const req: RunRequest = {
  argv: ["/bin/true"],
  cpuTimeLimitMs: 1000,
  wallTimeLimitMs: 2000,
  memoryLimitKib: 65536,
  processLimit: 4,
  outputLimitBytes: 1024,
  fileSizeLimitKib: 1024,
};

describe("DirectoryBox", () => {
  test("a second command while one runs is refused; afterwards the box runs again", async () => {
    const box = new SlowBox(7, dir);
    const first = box.run(req);
    await expect(box.run(req)).rejects.toThrow("box 7 is already running a command");
    await first;
    await box.run(req);
    expect(box.runs).toBe(2);
  });

  test("malformed requests are refused naming the field, before anything runs", async () => {
    const box = new SlowBox(8, dir);
    await expect(box.run({ ...req, argv: [] })).rejects.toThrow("RunRequest.argv");
    await expect(box.run({ ...req, memoryLimitKib: 0 })).rejects.toThrow("RunRequest.memoryLimitKib must be a positive integer");
    await expect(box.run({ ...req, env: { "BAD-NAME": "1" } })).rejects.toThrow("invalid environment variable name");
    expect(box.runs).toBe(0);
  });

  test("sandboxFailure is XX with the message, zero usage and what was seen", () => {
    const r = sandboxFailure("cgroup gone", { wallTimeMs: 12.4, stderr: "x" });
    expect(r).toMatchObject({ status: "XX", message: "cgroup gone", cpuTimeMs: 0, wallTimeMs: 12, memoryKib: 0, stderr: "x", exitCode: null });
  });
});
