/** The interface language stored on an account (issue 34 §3; users.locale, migration 0029). */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import type { LocaleTag } from "../i18n/locales.ts";

/** Stores `locale` as the user's interface language (the caller has validated it against LOCALE_TAGS). */
export async function setAccountLocale(db: Database, userId: string, locale: LocaleTag): Promise<void> {
  await db.update(users).set({ locale }).where(eq(users.id, userId));
}
