/**
 * The one way the upstream sends a message to a person: a row in the outbox table and a line in the log,
 * and, for an e-mail with SMTP_URL set, the mail itself (./mailer.ts). Verification codes and price alerts
 * go through here.
 */
import type { Db } from '../db/database';
import type { SendMail } from './mailer';

export interface OutboxOptions {
  clock: () => number;
  log: (line: string) => void;
  /** Sends an e-mail (SMTP_URL set); without it the outbox is the only delivery. */
  mail?: SendMail;
}

export function sendMessage(db: Db, options: OutboxOptions, channel: 'email' | 'sms', to: string, subject: string, body: string): void {
  db.prepare('INSERT INTO outbox (channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)').run(
    channel,
    to,
    subject,
    body,
    options.clock(),
  );
  options.log(`outbox ${channel} to ${to}: ${subject} — ${body}`);
  // The caller never waits for the mail server: it would tell how long delivery takes, and phones wait.
  if (channel === 'email' && options.mail) void options.mail({ to, subject, text: body });
}
