/**
 * Test helper: a real SMTP server (tests/mail/smtp-sink.py on Debian's
 * python3-aiosmtpd) on a free loopback port, and the messages it received.
 *
 * @example
 * const smtp = await startSmtpSink();
 * // SMTP_URL: smtp.url
 * const [mail] = await smtp.waitFor(1);
 * await smtp.stop();
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A received message as the sink recorded it. */
export interface ReceivedMail {
  mailFrom: string;
  rcptTos: string[];
  from: string;
  to: string;
  subject: string;
  messageId: string;
  /** The `List-Unsubscribe` and `List-Unsubscribe-Post` headers (RFC 8058), null when absent. */
  listUnsubscribe?: string | null;
  listUnsubscribePost?: string | null;
  contentLanguage?: string | null;
  text: string | null;
  html: string | null;
}

export interface MailFilter {
  /** Leave out verification-link mails (every password sign-up sends one). */
  notices?: boolean;
}

export interface SmtpSink {
  port: number;
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  /** Every message received so far, in arrival order. */
  messages(): ReceivedMail[];
  /** Waits until at least `n` messages arrived. @throws after `timeoutMs` (default 20 s). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** The messages to one address so far; `notices` leaves out the address-verification links a password sign-up mails (decision 071). */
  messagesTo(to: string, opts?: MailFilter): ReceivedMail[];
  /** Waits until at least `n` messages to `to` arrived. @throws naming the address after `opts.timeoutMs` (default 15 s). */
  waitForTo(to: string, n?: number, opts?: MailFilter & { timeoutMs?: number }): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (or `preferred` when given). */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * Starts the sink.
 * @param port a fixed port (e2e tests use their own range); default: a free one.
 * @param opts.starttls offer STARTTLS with this certificate and key (PEM files) and refuse mail without it.
 */
export async function startSmtpSink(port = freePort(), opts: { starttls?: { certFile: string; keyFile: string } } = {}): Promise<SmtpSink> {
  const dir = mkdtempSync(join(tmpdir(), "oj-smtp-"));
  const tlsArgs = opts.starttls ? [opts.starttls.certFile, opts.starttls.keyFile] : [];
  // Debian's interpreter, where apt installs python3-aiosmtpd (scripts/install.sh, test role).
  const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const proc = Bun.spawn([python, join(import.meta.dir, "smtp-sink.py"), String(port), dir, ...tlsArgs], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const { value } = await Promise.race([
    reader.read(),
    Bun.sleep(15_000).then(() => ({ value: undefined })),
  ]);
  if (!value || !new TextDecoder().decode(value).includes("ready")) {
    proc.kill();
    throw new Error(`the SMTP sink did not start on port ${port} (is python3-aiosmtpd installed? scripts/install.sh)`);
  }
  const messages = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ReceivedMail);
  const messagesTo = (to: string, opts: MailFilter = {}) =>
    messages().filter((m) => m.rcptTos.includes(to) && !(opts.notices && m.text?.includes("/verify-email?token=")));
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(n, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const got = messages();
        if (got.length >= n) return got;
        if (Date.now() > until) throw new Error(`expected ${n} message(s) at the SMTP server within ${timeoutMs} ms, got ${got.length}`);
        await Bun.sleep(50);
      }
    },
    messagesTo,
    async waitForTo(to, n = 1, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 15_000;
      const until = Date.now() + timeoutMs;
      for (;;) {
        const got = messagesTo(to, opts);
        if (got.length >= n) return got;
        if (Date.now() > until) throw new Error(`no message ${n} to ${to} within ${timeoutMs} ms (have ${got.length})`);
        await Bun.sleep(50);
      }
    },
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The reset link's token in a message's text part. */
export function tokenIn(mail: ReceivedMail): string {
  const m = /\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? "");
  if (!m) throw new Error(`no reset link in: ${mail.text}`);
  return m[1]!;
}
