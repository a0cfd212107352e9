/** Router tests through a caller (no HTTP): problems, submissions and auth procedures with real contexts. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TRPCError } from "@trpc/server";
import { createCallerFactory } from "../init.ts";
import { appRouter } from "../router.ts";
import { AppError } from "../../errors.ts";
import type { Context, SessionUser } from "../../context.ts";
import { createTestServices, type TestServices } from "../../../tests/services.ts";

const createCaller = createCallerFactory(appRouter);
let t: TestServices;

beforeAll(async () => {
  t = await createTestServices();
});
afterAll(() => t.cleanup());

function ctxFor(user: SessionUser | null): Context {
  return { ...t.services, user, sessionId: user ? "session" : null, sessionToken: null, ip: "127.0.0.1", https: false, origin: "http://localhost", resHeaders: new Headers(), locale: "en" };
}

async function newUser(email: string): Promise<SessionUser> {
  const anon = createCaller(ctxFor(null));
  await anon.auth.register({ firstName: "F", lastName: "L", email, password: "password-123" });
  const ctx = ctxFor(null);
  const res = await createCaller(ctx).auth.login({ email, password: "password-123" });
  expect(ctx.resHeaders.getSetCookie()[0]).toStartWith("oj_session=");
  if (!("user" in res)) throw new Error("a two-factor ticket for an account without two-factor sign-in");
  return { ...res.user, siteRole: "user", canCreateCourses: false };
}

/** Calls and returns the AppError the procedure threw (fails the test if it did not throw one). */
async function appErrorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(TRPCError);
    const cause = (err as TRPCError).cause;
    expect(cause).toBeInstanceOf(AppError);
    return cause as AppError;
  }
  throw new Error("expected the call to fail");
}

const input = {
  title: "Echo",
  description: "Print the input.",
  inputFormat: "A line.",
  outputFormat: "The same line.",
  constraints: "Short.",
  sampleInput: "hi\n",
  sampleOutput: "hi\n",
  difficulty: "easy" as const,
  hiddenTestCases: [{ input: "secret\n", expectedOutput: "secret\n" }],
};

describe("problems router", () => {
  test("protected procedures refuse a context without a user (UNAUTHENTICATED)", async () => {
    const err = await appErrorOf(createCaller(ctxFor(null)).problems.list());
    expect(err.kind).toBe("UNAUTHENTICATED");
    expect(err.status).toBe(401);
  });

  test("create → list shows hidden tests to the owner only; byId never", async () => {
    const owner = await newUser("owner@example.com");
    const other = await newUser("other@example.com");
    const created = await createCaller(ctxFor(owner)).problems.create(input);
    const mine = (await createCaller(ctxFor(owner)).problems.list()).find((p) => p._id === created._id)!;
    expect(mine.hiddenTestCases).toEqual(input.hiddenTestCases);
    const theirs = (await createCaller(ctxFor(other)).problems.list()).find((p) => p._id === created._id)!;
    expect(theirs.hiddenTestCases).toBeUndefined();
    expect(theirs.hiddenTestCount).toBe(1);
    const byId = await createCaller(ctxFor(owner)).problems.byId({ id: created._id });
    expect(byId.hiddenTestCases).toBeUndefined();
  });

  test("forEdit gives the editor one whole problem (tests, validator) and nobody else; titles carry no statement", async () => {
    const owner = await newUser("fe@example.com");
    const other = await newUser("fe-other@example.com");
    const p = await createCaller(ctxFor(owner)).problems.create(input);
    const whole = await createCaller(ctxFor(owner)).problems.forEdit({ id: p._id });
    expect(whole).toMatchObject({ _id: p._id, title: "Echo", hiddenTestCases: input.hiddenTestCases, validator: null });
    const refused = await appErrorOf(createCaller(ctxFor(other)).problems.forEdit({ id: p._id }));
    expect([refused.kind, refused.status]).toEqual(["NOT_PROBLEM_OWNER_UPDATE", 403]);
    expect((await appErrorOf(createCaller(ctxFor(owner)).problems.forEdit({ id: "missing" }))).kind).toBe("PROBLEM_NOT_FOUND");
    const titles = await createCaller(ctxFor(other)).problems.titles();
    expect(titles.find((x) => x._id === p._id)).toEqual({ _id: p._id, title: "Echo", difficulty: "easy", user: owner.id });
    expect(JSON.stringify(titles)).not.toContain("Print the input.");
  });

  test("update and delete by a non-owner throw the catalogue's 403s; unknown ids 404", async () => {
    const owner = await newUser("o2@example.com");
    const other = await newUser("x2@example.com");
    const p = await createCaller(ctxFor(owner)).problems.create(input);
    const upd = await appErrorOf(createCaller(ctxFor(other)).problems.update({ id: p._id, title: "mine" }));
    expect([upd.kind, upd.status, upd.message]).toEqual(["NOT_PROBLEM_OWNER_UPDATE", 403, "You can only update your own problems"]);
    const del = await appErrorOf(createCaller(ctxFor(other)).problems.delete({ id: p._id }));
    expect([del.kind, del.message]).toEqual(["NOT_PROBLEM_OWNER_DELETE", "You can only delete your own problems"]);
    const missing = await appErrorOf(createCaller(ctxFor(owner)).problems.byId({ id: "missing" }));
    expect(missing.kind).toBe("PROBLEM_NOT_FOUND");
  });

  test("a zod failure reaches the caller as BAD_REQUEST with the ZodError as cause", async () => {
    const owner = await newUser("z@example.com");
    try {
      await createCaller(ctxFor(owner)).problems.create({ ...input, difficulty: "nope" as "easy" });
      throw new Error("expected failure");
    } catch (err) {
      expect((err as TRPCError).code).toBe("BAD_REQUEST");
    }
  });

  test("submissions.list is empty for a problem without submissions and 404s for an unknown problem", async () => {
    const owner = await newUser("s@example.com");
    const p = await createCaller(ctxFor(owner)).problems.create(input);
    expect(await createCaller(ctxFor(owner)).submissions.list({ problemId: p._id })).toEqual([]);
    const err = await appErrorOf(createCaller(ctxFor(owner)).submissions.list({ problemId: "nope" }));
    expect(err.kind).toBe("PROBLEM_NOT_FOUND");
  });

  test("auth.logout clears the cookie even when signed out", async () => {
    const ctx = ctxFor(null);
    expect(await createCaller(ctx).auth.logout()).toEqual({ message: "Logged out" });
    expect(ctx.resHeaders.getSetCookie()[0]).toContain("Max-Age=0");
  });
});

describe("the problem list cache", () => {
  test("reflects every write at once, including writes that bypass the API (triggers bump the revision)", async () => {
    const { problems: problemsTable, testCases } = await import("../../../db/schema.ts");
    const { eq } = await import("drizzle-orm");
    const owner = await newUser("cache-owner@example.com");
    const reader = await newUser("cache-reader@example.com");
    const list = () => createCaller(ctxFor(reader)).problems.list();
    const p = await createCaller(ctxFor(owner)).problems.create(input);
    expect((await list()).find((x) => x._id === p._id)?.title).toBe("Echo");
    await createCaller(ctxFor(owner)).problems.update({ id: p._id, title: "Echo 2" });
    expect((await list()).find((x) => x._id === p._id)?.title).toBe("Echo 2");
    // Direct SQL, as another process or an operator would write.
    await t.services.db.update(problemsTable).set({ title: "Echo 3" }).where(eq(problemsTable.id, p._id));
    expect((await list()).find((x) => x._id === p._id)?.title).toBe("Echo 3");
    await t.services.db.insert(testCases).values({ problemId: p._id, ordinal: 7, input: "x", expectedOutput: "x" });
    expect((await list()).find((x) => x._id === p._id)?.hiddenTestCount).toBe(2);
    await createCaller(ctxFor(owner)).problems.delete({ id: p._id });
    expect((await list()).some((x) => x._id === p._id)).toBe(false);
  });

  test("requests that arrive together after a write share one rebuild (the same array), and a later write makes a new one", async () => {
    const { publicProblemList } = await import("../../problems/list-cache.ts");
    const owner = await newUser("herd-owner@example.com");
    await createCaller(ctxFor(owner)).problems.create(input);
    const burst = await Promise.all(Array.from({ length: 8 }, () => publicProblemList(t.services.db)));
    expect(new Set(burst).size).toBe(1);
    expect(await publicProblemList(t.services.db)).toBe(burst[0]!);
    await createCaller(ctxFor(owner)).problems.create({ ...input, title: "Another" });
    const after = await publicProblemList(t.services.db);
    expect(after).not.toBe(burst[0]!);
    expect(after.length).toBe(burst[0]!.length + 1);
  });
});
