/**
 * The progress doors (issue 35) through the real app on a real libSQL file:
 * GET /api/progress (the caller's; 401 signed out; 400 naming `tz`),
 * GET /api/users/:handle (404 alike for no such handle and a private one),
 * account.setProfile over tRPC's HTTP (400/409 naming `handle`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../app.ts";
import { request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

const setProfile = (token: string, input: unknown) => request(app, "POST", "/trpc/account.setProfile", { token, body: input });

describe("GET /api/progress", () => {
  test("401 signed out; 200 with the caller's (empty) progress in the zone asked; UTC without one", async () => {
    expect((await request(app, "GET", "/api/progress")).status).toBe(401);
    const { token } = await signUp(app);
    const res = await request(app, "GET", "/api/progress?tz=Asia/Tokyo", { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: "Asia/Tokyo", solved: 0, attempted: 0, calendar: [], currentStreak: 0, longestStreak: 0 });
    expect(res.body.to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await request(app, "GET", "/api/progress", { token })).body.timeZone).toBe("UTC");
  });

  test("400 naming tz for a zone that is not IANA", async () => {
    const { token } = await signUp(app);
    for (const tz of ["Mars/Olympus", "+02:00", "x".repeat(80)]) {
      const res = await request(app, "GET", `/api/progress?tz=${encodeURIComponent(tz)}`, { token });
      expect([res.status, res.body.code, res.body.field]).toEqual([400, "BAD_INPUT", "tz"]);
    }
  });
});

describe("GET /api/users/:handle and the profile settings", () => {
  test("private by default: the same 404 for a private handle and a missing one; public: handle and progress only", async () => {
    const { token, user } = await signUp(app, { firstName: "Priya", lastName: "Private" });
    const set = await setProfile(token, { handle: "Priya_P", profilePublic: false });
    expect(set.status).toBe(200);
    expect(set.body.result.data).toEqual({ handle: "priya_p", profilePublic: false });
    const hidden = await request(app, "GET", "/api/users/priya_p");
    const missing = await request(app, "GET", "/api/users/no-such-person");
    expect([hidden.status, hidden.body]).toEqual([missing.status, missing.body]);
    expect([hidden.status, hidden.body.code]).toEqual([404, "PROFILE_NOT_FOUND"]);

    await setProfile(token, { handle: "priya_p", profilePublic: true });
    const shown = await request(app, "GET", "/api/users/PRIYA_P?tz=Europe/Paris");
    expect(shown.status).toBe(200);
    expect(Object.keys(shown.body).sort()).toEqual(["handle", "progress"]);
    expect(shown.body.handle).toBe("priya_p");
    expect(shown.body.progress.timeZone).toBe("Europe/Paris");
    const text = JSON.stringify(shown.body);
    for (const secret of ["Priya", "Private", user.email, user.id]) expect(text).not.toContain(secret);
    const me = await request(app, "GET", "/trpc/account.profile", { token });
    expect(me.body.result.data).toEqual({ handle: "priya_p", profilePublic: true });
  });

  test("a bad tz on a profile is a 400 naming tz; handles are checked (400 naming handle), reserved (400) and unique (409)", async () => {
    expect((await request(app, "GET", "/api/users/someone?tz=Bad/Zone")).body.field).toBe("tz");
    const a = await signUp(app);
    const b = await signUp(app);
    for (const handle of ["ab", "no spaces", "é-accent", "x".repeat(33)]) {
      const res = await setProfile(a.token, { handle, profilePublic: true });
      expect([res.status, res.body.error.data.app.field]).toEqual([400, "handle"]);
    }
    const reserved = await setProfile(a.token, { handle: "Admin", profilePublic: true });
    expect([reserved.status, reserved.body.error.data.app.kind, reserved.body.error.data.app.field]).toEqual([400, "HANDLE_RESERVED", "handle"]);
    expect((await setProfile(a.token, { handle: "first-come", profilePublic: true })).status).toBe(200);
    const taken = await setProfile(b.token, { handle: "FIRST-COME", profilePublic: true });
    expect([taken.status, taken.body.error.data.app.kind, taken.body.error.data.app.field]).toEqual([409, "HANDLE_TAKEN", "handle"]);
    expect((await setProfile(b.token, { handle: "second", profilePublic: "yes" })).body.error.data.app.field).toBe("profilePublic");
  });
});
