/** Site administration (site admins only): accounts, their site role and course-creation right. */
import { listAccounts, setAccount, setAccountInput } from "../../accounts/admin.ts";
import { statusReport } from "../../ops/status.ts";
import { protectedProcedure, router } from "../init.ts";

export const adminRouter = router({
  /** @throws FORBIDDEN (403) unless a site admin. */
  accounts: protectedProcedure.query(({ ctx }) => listAccounts(ctx.db, ctx.user)),
  /** @throws FORBIDDEN (403) unless a site admin; BAD_INPUT (400) for an unknown account. */
  setAccount: protectedProcedure.input(setAccountInput).mutation(({ ctx, input }) => setAccount(ctx.db, ctx.user, input)),
  /** The operator's view: queue, jobs in progress, throughput, sandbox self-test, database size, last backup, recent errors. @throws FORBIDDEN (403). */
  status: protectedProcedure.query(({ ctx }) => statusReport(ctx, ctx.user)),
});
