/**
 * Mail settings (src/config.ts, decision 059): whether this server sends mail,
 * and the nodemailer SMTP transport options built from SMTP_URL or
 * SMTP_HOST/PORT/USER/PASS. Nothing here opens a connection.
 */
import { readFileSync } from "node:fs";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { Config } from "../config.ts";

export type MailSettings = Pick<Config, "SMTP_URL" | "SMTP_HOST" | "SMTP_PORT" | "SMTP_USER" | "SMTP_PASS" | "SMTP_TLS_CA_FILE" | "MAIL_FROM" | "MAIL_SEND_RATE">;

/** Whether an SMTP server is configured (SMTP_URL or SMTP_HOST): without one no mail is queued or sent. */
export function mailConfigured(config: Pick<Config, "SMTP_URL" | "SMTP_HOST">): boolean {
  return Boolean(config.SMTP_URL || config.SMTP_HOST);
}

/**
 * nodemailer's SMTP options: `smtp://` upgrades with STARTTLS when the server offers it, `smtps://` (or port
 * 465) is TLS from the start; credentials from the URL, else SMTP_USER/SMTP_PASS. A pooled connection, at most
 * MAIL_SEND_RATE messages per window towards the server. SMTP_TLS_CA_FILE: the certificate authority the server's
 * certificate is checked against (else the system's); certificates are always checked.
 * @returns null when no SMTP server is configured.
 * @throws Error naming SMTP_TLS_CA_FILE when it cannot be read.
 */
export function smtpOptions(config: MailSettings): SMTPTransport.Options | null {
  if (!mailConfigured(config)) return null;
  let host: string, port: number, secure: boolean, user: string | undefined, pass: string | undefined;
  if (config.SMTP_URL) {
    const u = new URL(config.SMTP_URL);
    secure = u.protocol === "smtps:";
    host = u.hostname.replace(/^\[|\]$/g, "");
    port = u.port ? Number(u.port) : secure ? 465 : 587;
    user = u.username ? decodeURIComponent(u.username) : config.SMTP_USER;
    pass = u.password ? decodeURIComponent(u.password) : config.SMTP_PASS;
  } else {
    host = config.SMTP_HOST!;
    port = config.SMTP_PORT ?? 587;
    secure = port === 465;
    user = config.SMTP_USER;
    pass = config.SMTP_PASS;
  }
  let ca: string | undefined;
  if (config.SMTP_TLS_CA_FILE) {
    try {
      ca = readFileSync(config.SMTP_TLS_CA_FILE, "utf8");
    } catch (err) {
      throw new Error(`SMTP_TLS_CA_FILE: cannot read ${config.SMTP_TLS_CA_FILE}: ${(err as Error).message}`);
    }
  }
  return {
    host,
    port,
    secure,
    ...(ca ? { tls: { ca } } : {}),
    ...(user ? { auth: { user, pass: pass ?? "" } } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  };
}

/** The domain of MAIL_FROM's address, for Message-IDs (`localhost` when it has none). */
export function fromDomain(mailFrom: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(mailFrom);
  return m?.[1] ?? "localhost";
}
