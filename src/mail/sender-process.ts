/**
 * The mail sender as a process of its own: `bun src/mail/sender-process.ts`
 * with the server's environment (DATABASE_URL, SMTP_URL, ...). It sends what
 * the outbox holds until SIGTERM or SIGINT; the web server runs the same loop
 * in-process when mail is configured, so this is for a separate mail worker
 * (and for the test that kills a sender mid-batch).
 */
import { loadConfig, exitOnConfigError } from "../config.ts";
import { openDatabase } from "../../db/index.ts";
import { createLogger } from "../log.ts";
import { startMailSender } from "./sender.ts";
import { handleResetRequests } from "../accounts/password-forgot.ts";
import { resolveSessionKey } from "../auth/session.ts";
import { queueNoticeMails } from "../notifications/mail.ts";

if (import.meta.main) {
  const config = await exitOnConfigError(() => loadConfig(process.env));
  const log = createLogger(config.LOG_LEVEL);
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  // "Forgot password" requests and notices marked for e-mail become mail here too, as in the web process (src/server.ts).
  const sessionKey = resolveSessionKey(config);
  const sender = startMailSender(
    { db, config, log },
    {
      pollMs: 500,
      beforeRound: async () => {
        await handleResetRequests({ db, config, now: Date.now });
        await queueNoticeMails({ db, config, sessionKey });
      },
    },
  );
  sender.kick();
  const stop = async () => {
    await sender.stop();
    client.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
