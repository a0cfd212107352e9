import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Database } from "../../../db/index.ts";
import { recordProblemStatus } from "./status.ts";

let dir: string;
let db: Database;
let close: () => void;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "oj-bank-status-"));
  const opened = await openDatabase(`file:${join(dir, "db.sqlite")}`);
  db = opened.db;
  close = () => opened.client.close();
  await migrateDatabase(db);
  await db.run(sql`INSERT INTO users (id, first_name, last_name, email, email_normalized) VALUES ('u1','A','B','a@x','a@x'), ('u2','C','D','c@x','c@x')`);
  await db.run(sql`INSERT INTO problems (id, title, description, input_format, output_format, constraints, sample_input, sample_output, difficulty, user_id)
    VALUES ('p1','Sum','Add two integers','','','','1 2','3','easy','u1')`);
});
afterEach(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function judged(userId: string, verdict: string): Promise<string> {
  const id = `s${++n}`;
  await db.run(sql`INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, created_at)
    VALUES (${id}, ${userId}, 'p1', 'python', 'print()', 'done', ${verdict}, ${1000 + n})`);
  await recordProblemStatus(db, { userId, problemId: "p1" });
  return id;
}
async function stats() {
  const [row] = await db.all<{ submitters: number; solvers: number }>(sql`SELECT submitters, solvers FROM problem_stats WHERE problem_id = 'p1'`);
  return row;
}
async function status(userId: string) {
  const [row] = await db.all<{ status: string; public_status: string | null; submission_count: number; solved_at: number | null }>(
    sql`SELECT status, public_status, submission_count, solved_at FROM user_problem_status WHERE user_id = ${userId} AND problem_id = 'p1'`,
  );
  return row ?? null;
}

describe("status rows and public counters", () => {
  test("WA then AC: attempted, then solved; the counters count users, not submissions", async () => {
    await judged("u1", "WA");
    expect(await status("u1")).toMatchObject({ status: "attempted", public_status: "attempted", submission_count: 1, solved_at: null });
    expect(await stats()).toEqual({ submitters: 1, solvers: 0 });
    await judged("u1", "AC");
    await judged("u1", "AC");
    expect(await status("u1")).toMatchObject({ status: "solved", public_status: "solved", submission_count: 3 });
    expect(await stats()).toEqual({ submitters: 1, solvers: 1 });
    await judged("u2", "TLE");
    expect(await stats()).toEqual({ submitters: 2, solvers: 1 });
  });

  test("IE is never an attempt; a rejudge that turns AC into WA takes the solver away", async () => {
    await judged("u1", "IE");
    expect(await status("u1")).toBeNull();
    expect(await stats()).toEqual({ submitters: 0, solvers: 0 });
    const id = await judged("u1", "AC");
    expect(await stats()).toEqual({ submitters: 1, solvers: 1 });
    await db.run(sql`UPDATE submissions SET verdict = 'WA' WHERE id = ${id}`);
    await recordProblemStatus(db, { userId: "u1", problemId: "p1" });
    await recordProblemStatus(db, { userId: "u1", problemId: "p1" });
    expect(await status("u1")).toMatchObject({ status: "attempted" });
    expect(await stats()).toEqual({ submitters: 1, solvers: 0 });
  });

  test("a contest AC marks the user solved but is not counted in the public numbers", async () => {
    // Only the contest id matters here, not the contest (its row is left out: foreign keys off for this insert).
    await db.run(sql`PRAGMA foreign_keys = OFF`);
    await db.run(sql`INSERT INTO submissions (id, user_id, problem_id, language, code, status, verdict, created_at, contest_id)
      VALUES ('sc', 'u2', 'p1', 'python', '', 'done', 'AC', 5, 'contest-1')`);
    await db.run(sql`PRAGMA foreign_keys = ON`);
    await recordProblemStatus(db, { userId: "u2", problemId: "p1" });
    expect(await status("u2")).toMatchObject({ status: "solved", public_status: null });
    expect(await stats()).toEqual({ submitters: 0, solvers: 0 });
    await judged("u2", "WA");
    expect(await status("u2")).toMatchObject({ status: "solved", public_status: "attempted" });
    expect(await stats()).toEqual({ submitters: 1, solvers: 0 });
  });
});
