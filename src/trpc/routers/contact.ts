/** Contact messages: stored for the operator, rate-limited per address. */
import { z } from "zod";
import { contactMessages } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { emailField, requiredText } from "../../lib/fields.ts";
import { publicProcedure, router } from "../init.ts";

export const contactInput = z.object({
  name: requiredText(100),
  email: emailField(),
  message: requiredText(5000),
});

export const contactRouter = router({
  /**
   * Stores a message (with the sender's user id when signed in).
   * @throws BAD_INPUT (400), RATE_LIMITED (429, 5 per 10 minutes per address).
   */
  send: publicProcedure.input(contactInput).mutation(async ({ ctx, input }) => {
    const gate = ctx.limiters.contactByIp.hit(ctx.ip);
    if (!gate.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: gate.retryAfterSeconds });
    const [row] = await ctx.db
      .insert(contactMessages)
      .values({ ...input, userId: ctx.user?.id ?? null })
      .returning({ id: contactMessages.id });
    // The operator learns a message arrived and where it is; the sender's address and text stay out of the log.
    ctx.log.info(`contact: message ${row!.id} stored in contact_messages`);
    return { message: "Your message has been sent successfully!" };
  }),
});
