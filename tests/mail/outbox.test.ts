/**
 * The outbox against a real SMTP server (python3-aiosmtpd) and a real sender
 * process: a sender killed with SIGKILL mid-batch loses nothing, and after a
 * restart every message is delivered, each at most once more than once per
 * message in flight at the kill, always with its own Message-ID (decision 059).
 * Retries back off and end as `failed`, shown in the admin's report.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { compose } from "../../src/mail/compose.ts";
import { outboxReport, queueMail } from "../../src/mail/outbox.ts";
import { startMailSender } from "../../src/mail/sender.ts";
import { mailOutbox } from "../../db/schema.ts";
import { createTestDb } from "../db.ts";
import { startSmtpSink, type SmtpSink } from "./smtp.ts";

const ROOT = join(import.meta.dir, "..", "..");
let smtp: SmtpSink;
let tdb: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  tdb = await createTestDb();
});
afterAll(async () => {
  await smtp.stop();
  tdb.cleanup();
});

function senderEnv(): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: tdb.url,
    DATA_DIR: tdb.dir,
    SMTP_URL: smtp.url,
    PUBLIC_URL: "https://judge.example.edu",
    MAIL_FROM: "Judge <judge@example.edu>",
    MAIL_LEASE_SECONDS: "2",
    MAIL_SEND_RATE: "100000/1m",
  };
}

const spawnSender = () => Bun.spawn(["bun", join(ROOT, "src/mail/sender-process.ts")], { env: senderEnv(), stdout: "inherit", stderr: "inherit" });

test("kill -9 of the sender mid-batch: after a restart every message arrives, none lost, repeats only of the one in flight", async () => {
  const N = 80;
  const { db } = tdb;
  const inserts = Array.from({ length: N }, (_, i) =>
    queueMail(db, "Judge <judge@example.edu>", `student${i}@example.com`, "test", compose(`Message ${i}`, [`Body ${i}`])),
  );
  await db.batch(inserts as unknown as Parameters<typeof db.batch>[0]);
  const queued = await db.select({ id: mailOutbox.id, messageId: mailOutbox.messageId }).from(mailOutbox);
  expect(queued.length).toBe(N);

  const first = spawnSender();
  await smtp.waitFor(N / 2, 60_000);
  first.kill("SIGKILL");
  await first.exited;
  const atKill = smtp.messages().length;
  expect(atKill).toBeLessThan(N);

  const second = spawnSender();
  try {
    const until = Date.now() + 60_000;
    for (;;) {
      const left = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.status, "queued"));
      if (left.length === 0) break;
      if (Date.now() > until) throw new Error(`${left.length} message(s) still queued after the restart`);
      await Bun.sleep(100);
    }
  } finally {
    second.kill("SIGTERM");
    await second.exited;
  }
  const received = smtp.messages();
  const perId = new Map<string, number>();
  for (const m of received) perId.set(m.messageId, (perId.get(m.messageId) ?? 0) + 1);
  const repeats = [...perId.values()].filter((n) => n > 1).length;
  console.log(`outbox: ${N} queued, ${atKill} delivered before kill -9, ${received.length} deliveries in all, ${perId.size} distinct, ${repeats} repeated`);
  // None lost: every queued Message-ID arrived.
  expect([...perId.keys()].sort()).toEqual(queued.map((q) => q.messageId).sort());
  // None doubled but possibly the single message in flight at the kill (accepted, not yet marked), same Message-ID.
  expect(received.length - N).toBeLessThanOrEqual(1);
  expect(repeats).toBeLessThanOrEqual(1);
  const statuses = await db.select({ status: mailOutbox.status }).from(mailOutbox);
  expect(statuses.every((s) => s.status === "sent")).toBe(true);
}, 180_000);

test("an unreachable server: retried with backoff, then failed and reported", async () => {
  const { db } = tdb;
  await db.delete(mailOutbox);
  const dead = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = dead.port;
  dead.stop(true);
  const config = loadConfig({ ...senderEnv(), SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_MAX_ATTEMPTS: "2" });
  await queueMail(db, config.MAIL_FROM, "someone@example.com", "test", compose("Hello", ["Body"]));
  const sender = startMailSender({ db, config, log: createLogger("silent") }, { pollMs: 60_000 });
  try {
    expect(await sender.round()).toBe(0);
    let [row] = await db.select().from(mailOutbox);
    expect([row!.status, row!.attempts]).toEqual(["queued", 1]);
    expect(row!.lastError).toBeTruthy();
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // Not due yet: a round leaves it alone.
    await sender.round();
    [row] = await db.select().from(mailOutbox);
    expect(row!.attempts).toBe(1);
    await db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1) });
    await sender.round();
    [row] = await db.select().from(mailOutbox);
    expect([row!.status, row!.attempts]).toEqual(["failed", 2]);
    const report = await outboxReport(db);
    expect(report.failed).toBe(1);
    expect(report.failures[0]!.to).toBe("someone@example.com");
  } finally {
    await sender.stop();
  }
});

test("STARTTLS to a server with a self-signed certificate, trusted through SMTP_TLS_CA_FILE; refused without it", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "oj-smtp-tls-"));
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyFile, "-out", certFile]);
  expect(made.exitCode).toBe(0);
  const tls = await startSmtpSink(undefined, { starttls: { certFile, keyFile } });
  const { db } = tdb;
  await db.delete(mailOutbox);
  try {
    const trusting = loadConfig({ ...senderEnv(), SMTP_URL: tls.url, SMTP_TLS_CA_FILE: certFile });
    await queueMail(db, trusting.MAIL_FROM, "tls@example.com", "test", compose("Over TLS", ["Body"]));
    // Without the CA the certificate is refused: not delivered, retried later.
    const untrusting = startMailSender({ db, config: loadConfig({ ...senderEnv(), SMTP_URL: tls.url }), log: createLogger("silent") }, { pollMs: 60_000 });
    await untrusting.round();
    await untrusting.stop();
    let [row] = await db.select().from(mailOutbox);
    expect(row!.status).toBe("queued");
    expect(row!.lastError).toMatch(/certificate/i);
    expect(tls.messages()).toEqual([]);
    await db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1) });
    const sender = startMailSender({ db, config: trusting, log: createLogger("silent") }, { pollMs: 60_000 });
    expect(await sender.round()).toBe(1);
    await sender.stop();
    [row] = await db.select().from(mailOutbox);
    expect(row!.status).toBe("sent");
    const [got] = tls.messages();
    expect(got!.subject).toBe("Over TLS");
  } finally {
    await tls.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
