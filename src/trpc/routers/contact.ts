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
    await ctx.db.insert(contactMessages).values({ ...input, userId: ctx.user?.id ?? null });
    return { message: "Your message has been sent successfully!" };
  }),
});
