/**
 * The mail sender: a loop that claims due messages from the outbox
 * (src/mail/outbox.ts), hands each to the SMTP server through one pooled
 * nodemailer connection (at most MAIL_SEND_RATE), and records the outcome at
 * once: `sent` right after the server's 250, else a retry with backoff, `failed`
 * after MAIL_MAX_ATTEMPTS or when the server refuses for good (5xx).
 *
 * Crash safety (decision 059): nothing is lost, because a message leaves the
 * queue only when marked sent, and a killed sender's lease runs out
 * (MAIL_LEASE_SECONDS) so its messages are claimed again. A message the server
 * had accepted just before the kill, but that was not yet marked, is sent
 * again with the same Message-ID: at most the messages in flight at the kill
 * (one per connection), each recognisable as a repeat.
 */
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { Config } from "../config.ts";
import type { Database } from "../../db/index.ts";
import type { Logger } from "../log.ts";
import { claimDue, markRetry, markSent } from "./outbox.ts";
import { smtpOptions } from "./settings.ts";

export interface MailSender {
  /** Runs a round soon (after something was queued) instead of at the next poll. */
  kick(): void;
  /** Runs one round now: claims and sends until nothing is due. @returns the number of messages delivered. */
  round(): Promise<number>;
  /** Stops polling, waits for the round in progress, closes the connection. */
  stop(): Promise<void>;
}

export interface MailSenderOptions {
  /** How often to look for due messages when not kicked, ms (default 2000). */
  pollMs?: number;
  /** Messages claimed at once (default 20). */
  batch?: number;
  /** Work to do before each round (the accounts' pending "forgot password" requests become messages). */
  beforeRound?: () => Promise<unknown>;
  /** A transport to use instead of SMTP from the config (none is made up: tests use a real SMTP server). */
  transport?: Transporter<SMTPTransport.SentMessageInfo>;
}

type SenderConfig = Pick<Config, "SMTP_URL" | "SMTP_HOST" | "SMTP_PORT" | "SMTP_USER" | "SMTP_PASS" | "SMTP_TLS_CA_FILE" | "MAIL_FROM" | "MAIL_SEND_RATE" | "MAIL_MAX_ATTEMPTS" | "MAIL_LEASE_SECONDS">;

/**
 * Starts the loop. @throws Error when no SMTP server is configured and no transport is given.
 */
export function startMailSender(deps: { db: Database; config: SenderConfig; log: Logger }, opts: MailSenderOptions = {}): MailSender {
  const { db, config, log } = deps;
  const smtp = smtpOptions(config);
  if (!smtp && !opts.transport) throw new Error("startMailSender: no SMTP server configured (SMTP_URL or SMTP_HOST)");
  const transport =
    opts.transport ??
    nodemailer.createTransport({
      ...smtp!,
      pool: true,
      maxConnections: 1,
      rateLimit: config.MAIL_SEND_RATE.limit,
      rateDelta: config.MAIL_SEND_RATE.windowMs,
    });
  const owner = `${process.pid}-${crypto.randomUUID()}`;
  const leaseMs = config.MAIL_LEASE_SECONDS * 1000;
  const batch = opts.batch ?? 20;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  const sendOne = async (row: Awaited<ReturnType<typeof claimDue>>[number]): Promise<boolean> => {
    // A claim about to run out is left to whoever claims it next rather than raced.
    if (row.leaseUntil && row.leaseUntil.getTime() - Date.now() < Math.min(5_000, leaseMs / 4)) return false;
    try {
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        messageId: row.messageId,
        date: row.createdAt,
        ...(row.headers ? { headers: row.headers } : {}),
      });
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      const message = err instanceof Error ? err.message : String(err);
      await markRetry(db, row, owner, Date.now(), message, { maxAttempts: config.MAIL_MAX_ATTEMPTS, permanent: code !== undefined && code >= 500 });
      log.warn("mail not delivered", { id: row.id, kind: row.kind, attempt: row.attempts, error: message });
      return false;
    }
    return markSent(db, row.id, owner, Date.now());
  };

  const roundOnce = async (): Promise<number> => {
    let delivered = 0;
    if (opts.beforeRound) await opts.beforeRound();
    while (!stopped) {
      const rows = await claimDue(db, owner, Date.now(), leaseMs, batch);
      if (rows.length === 0) break;
      for (const row of rows) {
        if (stopped) break;
        if (await sendOne(row)) delivered++;
      }
    }
    return delivered;
  };

  const round = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await roundOnce();
        } while (again && !stopped);
      } catch (err) {
        log.error("mail sender round failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  };

  const timer = setInterval(() => void round(), opts.pollMs ?? 2000);
  return {
    kick: () => void round(),
    round,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
