/**
 * The account's public profile settings (issue 35): its handle and whether
 * `/u/:handle` shows its progress (src/progress/access.ts decides what the
 * page shows). The `users` table is this folder's to write.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { RESERVED_HANDLES, type ProfileSettings } from "../progress/shape.ts";

/** The caller's public-profile settings. */
export async function profileSettings(db: Database, userId: string): Promise<ProfileSettings> {
  const [row] = await db.select({ handle: users.handle, profilePublic: users.profilePublic }).from(users).where(eq(users.id, userId)).limit(1);
  return { handle: row?.handle ?? null, profilePublic: row?.profilePublic ?? false };
}

/**
 * Sets the caller's handle (already trimmed, lower-cased and checked by `handleField`)
 * and whether `/u/:handle` is public. Without a handle the profile cannot be public.
 * @throws AppError HANDLE_RESERVED (400, field `handle`) for a reserved word;
 *   HANDLE_TAKEN (409, field `handle`) when another account has it (the unique index decides, no race).
 */
export async function setProfile(db: Database, userId: string, input: { handle: string | null; profilePublic: boolean }): Promise<ProfileSettings> {
  const handle = input.handle;
  if (handle !== null && RESERVED_HANDLES.has(handle)) throw new AppError("HANDLE_RESERVED", { field: "handle" });
  const profilePublic = handle !== null && input.profilePublic;
  try {
    await db.update(users).set({ handle, profilePublic }).where(eq(users.id, userId));
  } catch (err) {
    if (/UNIQUE constraint failed: users\.handle/.test(String((err as { cause?: unknown }).cause ?? err))) throw new AppError("HANDLE_TAKEN", { field: "handle" });
    throw err;
  }
  return { handle, profilePublic };
}
