/** Accounts against a real libSQL file: creating accounts, and the password check with its throttling. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { createTestDb } from "../../tests/db.ts";
import { loadConfig } from "../config.ts";
import { createLimiters } from "../context.ts";
import { AppError } from "../errors.ts";
import { authenticate } from "./login.ts";
import { createUser, emailTaken, hashPassword, normalizeEmail } from "./user.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
let db: Database;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
});
afterAll(() => t.cleanup());

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "resolved";
  } catch (err) {
    if (err instanceof AppError) return err.kind;
    throw err;
  }
}

describe("accounts", () => {
  test("createUser keeps the email as typed, signs in by its normalised form, and refuses it twice (any case)", async () => {
    const u = await createUser(db, { firstName: "Ada", lastName: "L", email: "Ada@Example.com", passwordHash: await hashPassword("correct horse") });
    expect(u).toMatchObject({ firstName: "Ada", email: "Ada@Example.com" });
    expect(normalizeEmail("  Ada@Example.COM ")).toBe("ada@example.com");
    expect(await emailTaken(db, "ADA@example.com")).toBe(true);
    expect(await kindOf(createUser(db, { firstName: "B", lastName: "B", email: "ada@example.com", passwordHash: null }))).toBe("EMAIL_TAKEN");
  });

  test("passwords are hashed with argon2id at OWASP's 19 MiB, 2 passes; a hash of Bun's default cost (64 MiB) still verifies", async () => {
    expect(await hashPassword("correct horse")).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
    const older = await Bun.password.hash("older-password", { algorithm: "argon2id" });
    expect(older).toStartWith("$argon2id$v=19$m=65536,t=2,p=1$");
    await createUser(db, { firstName: "Old", lastName: "O", email: "old@example.com", passwordHash: older });
    expect((await authenticate({ db, limiters: createLimiters(loadConfig({})) }, "10.0.0.9", "old@example.com", "older-password")).email).toBe("old@example.com");
  });

  test("authenticate: the right password signs in; a wrong one and an unknown email are the same 401", async () => {
    await createUser(db, { firstName: "Bo", lastName: "B", email: "bo@example.com", passwordHash: await hashPassword("secret-pass") });
    const deps = { db, limiters: createLimiters(loadConfig({})) };
    expect((await authenticate(deps, "10.0.0.1", "BO@example.com", "secret-pass")).email).toBe("bo@example.com");
    expect(await kindOf(authenticate(deps, "10.0.0.1", "bo@example.com", "wrong-pass"))).toBe("INVALID_CREDENTIALS");
    expect(await kindOf(authenticate(deps, "10.0.0.1", "nobody@example.com", "secret-pass"))).toBe("INVALID_CREDENTIALS");
  });

  test("an account without a password, and the system account, cannot sign in", async () => {
    await createUser(db, { firstName: "Ext", lastName: "X", email: "ext@example.com", passwordHash: null });
    await db.insert(users).values({ firstName: "Sys", lastName: "S", email: "sys@example.com", emailNormalized: "sys@example.com", passwordHash: await hashPassword("system-pass"), isSystem: true });
    const deps = { db, limiters: createLimiters(loadConfig({})) };
    expect(await kindOf(authenticate(deps, "10.0.0.2", "ext@example.com", "anything-at-all"))).toBe("INVALID_CREDENTIALS");
    expect(await kindOf(authenticate(deps, "10.0.0.2", "sys@example.com", "system-pass"))).toBe("INVALID_CREDENTIALS");
  });

  test("after 5 failures for one email the 6th attempt is refused before the password is checked; a success resets the count", async () => {
    await createUser(db, { firstName: "Cy", lastName: "C", email: "cy@example.com", passwordHash: await hashPassword("cy-password") });
    const deps = { db, limiters: createLimiters(loadConfig({})) };
    for (let i = 0; i < 4; i++) expect(await kindOf(authenticate(deps, "10.0.0.3", "cy@example.com", `guess-${i}-xx`))).toBe("INVALID_CREDENTIALS");
    expect((await authenticate(deps, "10.0.0.3", "cy@example.com", "cy-password")).email).toBe("cy@example.com");
    for (let i = 0; i < 5; i++) expect(await kindOf(authenticate(deps, "10.0.0.3", "cy@example.com", `guess-${i}-yy`))).toBe("INVALID_CREDENTIALS");
    expect(await kindOf(authenticate(deps, "10.0.0.3", "cy@example.com", "cy-password"))).toBe("TOO_MANY_LOGIN_ATTEMPTS");
  });
});
