/** Contact messages: stored for the operator, rate-limited per client address. */
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { contactMessages } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { emailField, requiredText } from "../lib/fields.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";

export const contactInput = z.object({
  name: requiredText(100),
  email: emailField(),
  message: requiredText(5000),
});
export type ContactInput = z.infer<typeof contactInput>;

/**
 * Stores a message (with the sender's user id when signed in).
 * @param limiter the per-address limiter (`contactByIp`: RATE_LIMIT_CONTACT_PER_ADDRESS, 30 per 10 minutes by default).
 * @returns the stored message's id.
 * @throws AppError RATE_LIMITED (429) past the limit.
 */
export async function storeContactMessage(
  deps: { db: Database; limiter: RateLimiter },
  ip: string,
  userId: string | null,
  input: ContactInput,
): Promise<string> {
  const gate = deps.limiter.hit(ip);
  if (!gate.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: gate.retryAfterSeconds });
  const [row] = await deps.db
    .insert(contactMessages)
    .values({ ...input, userId })
    .returning({ id: contactMessages.id });
  return row!.id;
}
