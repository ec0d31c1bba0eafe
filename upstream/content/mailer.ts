/**
 * E-mail delivery of verification codes: with `SMTP_URL` set, each outbox e-mail is also sent over SMTP
 * (nodemailer); without it the outbox and the log are the only delivery (development and tests).
 */
import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string };
export type SendMail = (mail: Mail) => Promise<void>;

export function smtpMailer(url: string, from: string, log: (line: string) => void): SendMail {
  const transport = nodemailer.createTransport(url, { from });
  return async (mail) => {
    try {
      await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
    } catch (err) {
      // The outbox keeps the message; the trader can ask for another code after the countdown.
      log(`smtp: could not send to ${mail.to}: ${String((err as Error).message ?? err)}`);
    }
  };
}
