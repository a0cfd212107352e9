/** Contact messages: a thin door over src/contact. */
import { contactInput, storeContactMessage } from "../../contact/messages.ts";
import { answerText } from "../../i18n/answers.ts";
import { publicProcedure, router } from "../init.ts";

export const contactRouter = router({
  /**
   * Stores a message (with the sender's user id when signed in).
   * @throws BAD_INPUT (400), RATE_LIMITED (429, RATE_LIMIT_CONTACT_PER_ADDRESS: 30 per 10 minutes per address by default).
   */
  send: publicProcedure.input(contactInput).mutation(async ({ ctx, input }) => {
    const id = await storeContactMessage({ db: ctx.db, limiter: ctx.limiters.contactByIp }, ctx.ip, ctx.user?.id ?? null, input);
    // The operator learns a message arrived and where it is; the sender's address and text stay out of the log.
    ctx.log.info(`contact: message ${id} stored in contact_messages`);
    return { message: answerText(ctx.locale, "contactSent") };
  }),
});
