import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import { submissions, submissionTests } from "../../db/schema.ts";
import { createTestDb } from "../../tests/db.ts";
import { insertProblem, insertUser } from "../../tests/judge/fixtures.ts";
import { JudgeQueue, MAX_ATTEMPTS, newOwnerId, ownerIsDeadLocally } from "./queue.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
let problemId: string;
beforeEach(async () => {
  t = await createTestDb();
  problemId = await insertProblem(t.db, await insertUser(t.db, "setter"), { sampleOutput: "1" });
});
afterEach(() => t.cleanup());

let clock = 1_000_000;
async function enqueue(userId: string, n = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    clock += 10;
    const [row] = await t.db
      .insert(submissions)
      .values({ userId, problemId, language: "cpp", code: `// ${clock}`, createdAt: new Date(clock) })
      .returning({ id: submissions.id });
    ids.push(row!.id);
  }
  return ids;
}

const row = async (id: string) => (await t.db.query.submissions.findFirst({ where: eq(submissions.id, id) }))!;

describe("JudgeQueue", () => {
  test("claim takes the oldest job, leases it and counts the attempt", async () => {
    const user = await insertUser(t.db);
    const [a, b] = await enqueue(user, 2);
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000, now: () => 5_000_000 });
    const claimed = await q.claim();
    expect(claimed?.id).toBe(a!);
    expect(claimed?.status).toBe("compiling");
    expect(claimed?.leaseOwner).toBe("w1");
    expect(claimed?.leaseExpiresAt?.getTime()).toBe(5_060_000);
    expect(claimed?.attempts).toBe(1);
    expect((await q.claim())?.id).toBe(b!);
    expect(await q.claim()).toBeNull();
  });

  test("live submissions are claimed before rejudges, even older rejudges", async () => {
    const setter = await insertUser(t.db);
    const student = await insertUser(t.db);
    const [rejudge] = await enqueue(setter, 1);
    await t.db.update(submissions).set({ previousVerdict: "WA" }).where(eq(submissions.id, rejudge!));
    const [live] = await enqueue(student, 1);
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000 });
    expect((await q.claim())?.id).toBe(live!);
    expect((await q.claim())?.id).toBe(rejudge!);
  });

  test("two workers claiming at once never get the same job", async () => {
    const users = [await insertUser(t.db), await insertUser(t.db), await insertUser(t.db)];
    for (const u of users) await enqueue(u, 8);
    const q1 = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000 });
    const q2 = new JudgeQueue(t.db, { owner: "w2", leaseMs: 60_000 });
    const claims = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? q1 : q2).claim()));
    const ids = claims.filter((c) => c !== null).map((c) => c!.id);
    expect(ids.length).toBe(24);
    expect(new Set(ids).size).toBe(24);
  });

  test("a user holding JUDGE_JOBS_PER_USER jobs waits: the free slot goes to another user (review N1)", async () => {
    const attacker = await insertUser(t.db);
    const victim = await insertUser(t.db);
    const [first, second, third] = await enqueue(attacker, 3);
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000, jobsPerUser: 1 });
    expect((await q.claim())?.id).toBe(first!);
    // Nobody else waits, yet the attacker's backlog does not take the second slot.
    expect(await q.claim()).toBeNull();
    const [mine] = await enqueue(victim, 1);
    expect((await q.claim())?.id).toBe(mine!);
    expect(await q.claim()).toBeNull();
    // A host's claim counts the same jobs: the cap is per user on every judge together.
    const host = new JudgeQueue(t.db, { owner: "judge-host/h1", leaseMs: 60_000, jobsPerUser: 1 });
    expect(await host.claim()).toBeNull();
    await q.finish({ id: first!, claimToken: (await row(first!)).claimToken }, { verdict: "AC", isPassed: true });
    expect((await host.claim())?.id).toBe(second!);
    // Two at a time when the setting says so.
    const roomy = new JudgeQueue(t.db, { owner: "w2", leaseMs: 60_000, jobsPerUser: 2 });
    expect((await roomy.claim())?.id).toBe(third!);
  });

  test("fair share: one user's burst does not starve another", async () => {
    const alice = await insertUser(t.db, "alice");
    const bob = await insertUser(t.db, "bob");
    const carol = await insertUser(t.db, "carol");
    await enqueue(alice, 5);
    await enqueue(bob, 2);
    await enqueue(carol, 1);
    let now = 2_000_000;
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000, now: () => now });
    const order: string[] = [];
    for (;;) {
      now += 100;
      const job = await q.claim();
      if (!job) break;
      order.push(job.userId === alice ? "A" : job.userId === bob ? "B" : "C");
      expect(await q.finish(job, { verdict: "AC", isPassed: true })).toBe(true);
    }
    expect(order.join("")).toBe("ABCABAAA");
  });

  test("fencing: a stale claim of a job changes nothing, even from the same process that holds the new claim", async () => {
    const user = await insertUser(t.db);
    const [id] = await enqueue(user);
    let now = 3_500_000;
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 1000, now: () => now });
    const stale = (await q.claim())!;
    now += 5000;
    // Another process re-queues the expired job, and the same worker claims it again.
    expect((await new JudgeQueue(t.db, { owner: "w2", leaseMs: 1000, now: () => now }).recover()).requeued).toEqual([id!]);
    const fresh = (await q.claim())!;
    expect(fresh.leaseOwner).toBe(stale.leaseOwner);
    expect(fresh.claimToken).not.toBe(stale.claimToken);
    expect(await q.addTest(stale, { index: 0, isSample: true, verdict: "WA", timeMs: 1, memoryKib: 1 })).toBe(false);
    expect(await q.finish(stale, { verdict: "WA" })).toBe(false);
    expect(await q.renew(stale)).toBe(false);
    expect((await row(id!)).status).toBe("compiling");
    expect(await q.finish(fresh, { verdict: "AC", isPassed: true })).toBe(true);
    expect((await row(id!)).verdict).toBe("AC");
  });

  test("fair share with two slots: a user with a job running waits behind others", async () => {
    const alice = await insertUser(t.db, "alice");
    const bob = await insertUser(t.db, "bob");
    await enqueue(alice, 3);
    await enqueue(bob, 1);
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000 });
    const first = await q.claim();
    const second = await q.claim();
    expect(first!.userId).toBe(alice);
    expect(second!.userId).toBe(bob);
  });

  test("writes need the lease: a taken-over job ignores the old holder", async () => {
    const user = await insertUser(t.db);
    const [id] = await enqueue(user);
    let now = 3_000_000;
    const q1 = new JudgeQueue(t.db, { owner: "w1", leaseMs: 1000, now: () => now });
    const q2 = new JudgeQueue(t.db, { owner: "w2", leaseMs: 1000, now: () => now });
    const first = (await q1.claim())!;
    expect(await q1.renew(first)).toBe(true);
    now += 5000;
    expect((await q2.recover()).requeued).toEqual([id!]);
    const again = (await q2.claim())!;
    expect(again.attempts).toBe(2);
    expect(await q1.renew(first)).toBe(false);
    expect(await q1.update(first, { status: "running" })).toBe(false);
    expect(await q1.addTest(first, { index: 0, isSample: true, verdict: "WA", timeMs: 1, memoryKib: 1 })).toBe(false);
    expect(await q1.finish(first, { verdict: "WA" })).toBe(false);
    expect(await t.db.select().from(submissionTests)).toEqual([]);
    expect(await q2.addTest(again, { index: 0, isSample: true, verdict: "AC", timeMs: 1, memoryKib: 1 })).toBe(true);
    expect(await q2.finish(again, { verdict: "AC", isPassed: true })).toBe(true);
    const done = await row(id!);
    expect(done.status).toBe("done");
    expect(done.verdict).toBe("AC");
    expect(done.leaseOwner).toBeNull();
  });

  test("recover leaves live leases alone", async () => {
    const user = await insertUser(t.db);
    const [id] = await enqueue(user);
    const q1 = new JudgeQueue(t.db, { owner: newOwnerId(), leaseMs: 60_000 });
    const q2 = new JudgeQueue(t.db, { owner: newOwnerId(), leaseMs: 60_000 });
    await q1.claim();
    expect(await q2.recover()).toEqual({ requeued: [], failed: [] });
    expect((await row(id!)).status).toBe("compiling");
  });

  test("a lease held by a dead process on this host is recovered at once", async () => {
    const user = await insertUser(t.db);
    const [id] = await enqueue(user);
    const child = Bun.spawn(["true"]);
    await child.exited;
    const deadOwner = `${hostname()}:${child.pid}:deadbeef`;
    expect(ownerIsDeadLocally(deadOwner)).toBe(true);
    expect(ownerIsDeadLocally(`${hostname()}:${process.pid}:x`)).toBe(false);
    expect(ownerIsDeadLocally(`another-host:${child.pid}:x`)).toBe(false);
    await new JudgeQueue(t.db, { owner: deadOwner, leaseMs: 3_600_000 }).claim();
    const q = new JudgeQueue(t.db, { owner: newOwnerId(), leaseMs: 60_000 });
    expect((await q.recover()).requeued).toEqual([id!]);
    const r = await row(id!);
    expect(r.status).toBe("queued");
    expect(r.leaseOwner).toBeNull();
  });

  test(`a job interrupted ${MAX_ATTEMPTS} times is finished as IE`, async () => {
    const user = await insertUser(t.db);
    const [id] = await enqueue(user);
    let now = 4_000_000;
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      const q = new JudgeQueue(t.db, { owner: `crashy-${i}`, leaseMs: 1000, now: () => now });
      const claimed = (await q.claim())!;
      expect(claimed.attempts).toBe(i);
      await q.addTest(claimed, { index: 0, isSample: true, verdict: "AC", timeMs: 1, memoryKib: 1 });
      now += 2000;
      const { requeued, failed } = await new JudgeQueue(t.db, { owner: "rescuer", leaseMs: 1000, now: () => now }).recover();
      if (i < MAX_ATTEMPTS) expect(requeued).toEqual([id!]);
      else expect(failed).toEqual([id!]);
    }
    const r = await row(id!);
    expect(r.status).toBe("done");
    expect(r.verdict).toBe("IE");
    expect(r.errorDetail).toContain("interrupted");
    expect(await t.db.select().from(submissionTests)).toEqual([]);
  });

  test("release gives a job back without counting the attempt", async () => {
    const user = await insertUser(t.db);
    const [id] = await enqueue(user);
    const q = new JudgeQueue(t.db, { owner: "w1", leaseMs: 60_000 });
    await q.release((await q.claim())!);
    const r = await row(id!);
    expect(r.status).toBe("queued");
    expect(r.attempts).toBe(0);
    expect(r.leaseOwner).toBeNull();
  });
});
