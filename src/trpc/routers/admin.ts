/** Site administration (site admins only): accounts, their site role and course-creation right. */
import { listAccounts, listAccountsInput, setAccount, setAccountInput } from "../../accounts/admin.ts";
import { adminResetLink } from "../../accounts/passwords.ts";
import { requireAdmin } from "../../accounts/admin.ts";
import { outboxReport } from "../../mail/outbox.ts";
import { idField } from "../../lib/fields.ts";
import { z } from "zod";
import { statusReport } from "../../ops/status.ts";
import { protectedProcedure, router } from "../init.ts";

export const adminRouter = router({
  /** @throws FORBIDDEN (403) unless a site admin. */
  accounts: protectedProcedure.input(listAccountsInput).query(({ ctx, input }) => listAccounts(ctx.db, ctx.user, input)),
  /** @throws FORBIDDEN (403) unless a site admin; BAD_INPUT (400) for an unknown account. */
  setAccount: protectedProcedure.input(setAccountInput).mutation(({ ctx, input }) => setAccount(ctx.db, ctx.user, input)),
  /**
   * A one-time password reset link for an account (valid an hour; shown once), for sites without mail.
   * @throws FORBIDDEN (403) unless a site admin; BAD_INPUT (400, field userId).
   */
  resetLink: protectedProcedure
    .input(z.object({ userId: idField() }))
    .mutation(({ ctx, input }) => adminResetLink(ctx, ctx.user, input.userId, ctx.config.sso.publicUrl?.origin ?? ctx.origin)),
  /** The mail outbox: counts by status and the latest messages that failed for good. @throws FORBIDDEN (403). */
  mail: protectedProcedure.query(({ ctx }) => {
    requireAdmin(ctx.user);
    return outboxReport(ctx.db);
  }),
  /** The operator's view: queue, jobs in progress, throughput, sandbox self-test, database size, last backup, recent errors. @throws FORBIDDEN (403). */
  status: protectedProcedure.query(({ ctx }) => statusReport(ctx, ctx.user)),
});
