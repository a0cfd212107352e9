/** The admin status report: queue and jobs from the database, throughput, sandbox self-test, database size, backups, recent errors. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { newId } from "../../db/ids.ts";
import { problems, submissions, users } from "../../db/schema.ts";
import { createSandbox } from "../../isolate/index.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { AppError } from "../../src/errors.ts";
import { createBackup } from "../../src/ops/backup.ts";
import { recordingErrors } from "../../src/ops/state.ts";
import { statusReport } from "../../src/ops/status.ts";
import { createLogger } from "../../src/log.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { judgeConfig, preparePch } from "../judge/fixtures.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { addHost, authenticateHost } from "../../src/judge-hosts/hosts.ts";
import { createApp } from "../../src/app.ts";
import { request } from "../api.ts";
import { problemRow } from "../fixtures/problem.ts";

let sandbox: SandboxSelection;
let t: TestServices;
const admin = { id: "admin", siteRole: "admin" as const };

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 280)), () => {}, { buildPch: false });
  t = await createTestServices({ sandbox, env: {} });
}, 60_000);
afterAll(async () => {
  await sandbox?.backend?.close();
  t?.cleanup();
});

describe("statusReport", () => {
  test("only site admins", async () => {
    await expect(statusReport(t.services, { id: "u", siteRole: "user" })).rejects.toBeInstanceOf(AppError);
  });

  test("queue, jobs in progress with their age, throughput per 5 minutes, sandbox self-test, database size", async () => {
    const db = t.services.db;
    const userId = newId();
    await db.insert(users).values({ id: userId, firstName: "U", lastName: "U", email: "u@s", emailNormalized: "u@s" });
    const problemId = newId();
    await db.insert(problems).values(problemRow(userId, { id: problemId, title: "P", sampleInput: "", sampleOutput: "1" }));
    const now = Date.now();
    await db.insert(submissions).values([
      { userId, problemId, language: "py", code: "x", status: "queued", createdAt: new Date(now - 30_000) },
      { userId, problemId, language: "cpp", code: "x", status: "running", claimedAt: new Date(now - 12_000), attempts: 1 },
      { userId, problemId, language: "py", code: "x", status: "done", verdict: "AC", judgedAt: new Date(now - 2 * 60_000) },
      { userId, problemId, language: "py", code: "x", status: "done", verdict: "WA", judgedAt: new Date(now - 47.5 * 60_000) },
      { userId, problemId, language: "py", code: "x", status: "done", verdict: "WA", judgedAt: new Date(now - 2 * 3_600_000) },
    ]);
    const s = await statusReport(t.services, admin);
    expect(s.queue.queued).toBe(1);
    expect(s.queue.inProgress).toBe(1);
    expect(s.queue.oldestQueuedAgeSeconds).toBeGreaterThanOrEqual(29);
    expect(s.jobs).toEqual([{ submissionId: expect.any(String), language: "cpp", status: "running", ageSeconds: expect.any(Number), attempts: 1 }]);
    expect(s.jobs[0]!.ageSeconds).toBeGreaterThanOrEqual(11);
    expect(s.throughput.lastHour).toBe(2);
    expect(s.throughput.perFiveMinutes).toHaveLength(12);
    expect(s.throughput.perFiveMinutes[11]).toBe(1);
    expect(s.throughput.perFiveMinutes[2]).toBe(1);
    expect(s.sandbox.selfTest?.ok).toBe(true);
    expect(s.database.bytes).toBeGreaterThan(0);
    expect(JSON.stringify(s)).not.toContain('"code"');
  });

  test("judge hosts are listed with their last call and version, never their tokens; a host token opens no user route", async () => {
    const { token } = await addHost(t.services.db, "judge-a");
    await authenticateHost(t.services.db, token, "v9");
    const s = await statusReport(t.services, admin);
    expect(s.judgeHosts).toEqual([expect.objectContaining({ name: "judge-a", revoked: false, version: "v9" })]);
    expect(JSON.stringify(s)).not.toContain(token);
    const me = await request(createApp(t.services), "GET", "/api/auth/me", { token });
    expect(me.status).toBe(401);
  });

  test("recent internal errors come from the logger; the last backup from BACKUP_DIR", async () => {
    const log = recordingErrors(createLogger("silent"), t.services.ops);
    log.error("judge: something broke");
    const s = await statusReport(t.services, admin);
    expect(s.recentErrors[0]!.message).toBe("judge: something broke");
    expect(s.lastBackup).toBeNull();
    const dir = join(t.dir, "backups");
    await createBackup(t.config, join(dir, "backup-20260101T000000Z"), "test");
    const withBackups = await statusReport({ ...t.services, config: { ...t.config, BACKUP_DIR: dir } }, admin);
    expect(withBackups.lastBackup?.ok).toBe(true);
  });
});
