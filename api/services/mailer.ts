// Outgoing mail behind a small interface. With SMTP_URL set, messages go through nodemailer's SMTP
// transport; without it (the embedded default) each message is rendered by nodemailer's stream
// transport and written as an .eml file to DATA_DIR/outbox, so a fresh machine works with no mail
// server and tests can read what was sent.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  from: string;
  /** SMTP server URL (smtp:// or smtps://); when absent, messages go to outboxDir. */
  smtpUrl?: string;
  outboxDir: string;
}

export function createMailer(opts: MailerOptions): Mailer {
  return opts.smtpUrl ? smtpMailer(opts.smtpUrl, opts.from) : outboxMailer(opts.outboxDir, opts.from);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/** Writes each message as `<epoch ms>-<sequence>-<random>.eml`; names sort in sending order, also
 *  for several messages within one millisecond. */
export function outboxMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let created = false;
  let sequence = 0;
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      if (!created) {
        mkdirSync(outboxDir, { recursive: true });
        created = true;
      }
      const stamp = String(Date.now()).padStart(15, "0");
      const seq = String(sequence++ % 1e6).padStart(6, "0");
      const name = `${stamp}-${seq}-${randomBytes(4).toString("hex")}.eml`;
      writeFileSync(join(outboxDir, name), info.message as Buffer, { mode: 0o600 });
    },
  };
}
