/** Mail settings: SMTP_URL or host/port/user/pass become nodemailer's options; PUBLIC_URL is required with them. */
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { fromDomain, mailConfigured, smtpOptions } from "../../src/mail/settings.ts";

const base = { NODE_ENV: "test", PUBLIC_URL: "https://judge.example.edu" };

test("smtp:// is STARTTLS on 587 by default, smtps:// TLS on 465; credentials from the URL or their own settings", () => {
  const plain = smtpOptions(loadConfig({ ...base, SMTP_URL: "smtp://mailer%40x:p%3Ass@mail.example.edu" }))!;
  expect([plain.host, plain.port, plain.secure, plain.auth]).toEqual(["mail.example.edu", 587, false, { user: "mailer@x", pass: "p:ss" }]);
  const tls = smtpOptions(loadConfig({ ...base, SMTP_URL: "smtps://mail.example.edu", SMTP_USER: "u", SMTP_PASS: "p" }))!;
  expect([tls.port, tls.secure, tls.auth]).toEqual([465, true, { user: "u", pass: "p" }]);
  const byHost = smtpOptions(loadConfig({ ...base, SMTP_HOST: "relay.local", SMTP_PORT: "2525" }))!;
  expect([byHost.host, byHost.port, byHost.secure, byHost.auth]).toEqual(["relay.local", 2525, false, undefined]);
  expect(mailConfigured(loadConfig({ NODE_ENV: "test" }))).toBe(false);
  expect(smtpOptions(loadConfig({ NODE_ENV: "test" }))).toBeNull();
});

test("bad settings name the variable", () => {
  expect(() => loadConfig({ NODE_ENV: "test", SMTP_URL: "smtp://mail.example.edu" })).toThrow("PUBLIC_URL: required when SMTP_URL or SMTP_HOST is set");
  expect(() => loadConfig({ ...base, SMTP_URL: "http://mail.example.edu" })).toThrow("SMTP_URL:");
  expect(() => loadConfig({ ...base, MAIL_SEND_RATE: "10" })).toThrow("MAIL_SEND_RATE:");
  expect(() => loadConfig({ ...base, MAIL_MAX_ATTEMPTS: "0" })).toThrow("MAIL_MAX_ATTEMPTS:");
});

test("Message-IDs take MAIL_FROM's domain", () => {
  expect(fromDomain("Judge <judge@example.edu>")).toBe("example.edu");
  expect(fromDomain("judge@cs.example.edu")).toBe("cs.example.edu");
  expect(fromDomain("no address")).toBe("localhost");
});
