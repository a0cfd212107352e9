import { expect, test } from "bun:test";
import { SignJWT } from "jose";
import { userIdFromToken } from "./jwt.ts";

test("reads the id from a real signed token's payload, including non-ASCII claims", async () => {
  const token = await new SignJWT({ id: "u_42", name: "Zoë Ünïcode ✓" })
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode("x".repeat(32)));
  expect(userIdFromToken(token)).toBe("u_42");
});

test("returns null for missing, malformed or id-less tokens", async () => {
  expect(userIdFromToken(null)).toBeNull();
  expect(userIdFromToken("")).toBeNull();
  expect(userIdFromToken("not-a-jwt")).toBeNull();
  expect(userIdFromToken("a.%%%.c")).toBeNull();
  const noId = await new SignJWT({ sub: "u_1" }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("y".repeat(32)));
  expect(userIdFromToken(noId)).toBeNull();
  const numericId = await new SignJWT({ id: 7 }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("y".repeat(32)));
  expect(userIdFromToken(numericId)).toBeNull();
});
