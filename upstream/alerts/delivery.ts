/**
 * What happens when a price alert fires: `deliverAlert` is the one place. It tells the user's open sockets
 * (the realtime hub listens here and pushes `ALERT`), e-mails the user when the account has an address
 * (through the outbox, and SMTP when SMTP_URL is set), and pushes a notification to the phones the user
 * allowed (Web Push), the words in the language the alert was set in.
 */
import type { Alert } from '../../contract/calls/alerts';
import type { PushPayload } from '../../contract/calls/push';
import { AlertDirection } from '../../contract/calls/alerts';
import { formatUnits } from '../../contract/money';
import { sendMessage, type OutboxOptions } from '../content/outbox';
import type { Db } from '../db/database';
import { alertView } from '../http/views';
import type { Market } from '../market/market';
import type { AlertRow } from './book';
import type { Language } from '../../contract/enums';

export interface AlertDeliveryOptions extends OutboxOptions {
  /** A message of the upstream's catalogue in a language, with {{name}} placeholders filled. */
  text: (lang: Language, key: string, values?: Record<string, string>) => string;
  /** Sends a notification to the user's phones (Web Push); resolves with how many took it, never throws. */
  push?: (userId: number, payload: PushPayload) => Promise<number>;
}

export type AlertListener = (userId: number, alert: Alert) => void;

export class AlertDelivery {
  private listeners: AlertListener[] = [];
  private readonly emailOf;

  constructor(
    private readonly db: Db,
    private readonly market: Market,
    private readonly options: AlertDeliveryOptions,
  ) {
    this.emailOf = db.prepare('SELECT email FROM users WHERE id = ?');
  }

  /** The user's sockets: each fired alert, as `alert/list` shows it. */
  onAlert(listener: AlertListener): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  /** Runs once for each alert that fired (after its transaction). A failing channel never stops the others. */
  deliverAlert(userId: number, alert: AlertRow): void {
    const view = alertView(this.market, alert);
    for (const l of this.listeners) {
      try {
        l(userId, view);
      } catch (err) {
        this.options.log(`alert ${alert.id}: push failed: ${String(err)}`);
      }
    }
    const words = this.words(alert);
    try {
      this.email(userId, words);
    } catch (err) {
      this.options.log(`alert ${alert.id}: e-mail failed: ${String(err)}`);
    }
    void this.options.push?.(userId, {
      title: words.subject,
      body: words.note ? `${words.body} ${words.note}` : words.body,
      url: `/alerts?code=${encodeURIComponent(words.code)}`,
      // A second push of the same alert replaces the first notification instead of adding one.
      tag: `alert-${alert.id}`,
    });
  }

  /** The alert's subject and message in the language it was set in (the e-mail's and the notification's). */
  private words(alert: AlertRow): { code: string; subject: string; body: string; note: string } {
    const inst = this.market.get(alert.instrument_id)!;
    const price = (units: number) => formatUnits(units, inst.precision, inst.precision);
    const at = new Date(alert.triggered_at ?? this.options.clock()).toISOString();
    const values = {
      symbol: inst.showCode,
      price: price(alert.triggered_price ?? alert.price),
      level: price(alert.price),
      time: `${at.slice(0, 10)} ${at.slice(11, 16)}`,
      note: alert.note,
    };
    const t = (key: string) => this.options.text(alert.lang, `mail.${key}`, values);
    return {
      code: inst.code,
      subject: t('alertSubject'),
      body: t(alert.direction === AlertDirection.Above ? 'alertAboveBody' : 'alertBelowBody'),
      note: alert.note ? t('alertNote') : '',
    };
  }

  private email(userId: number, words: { subject: string; body: string; note: string }): void {
    const to = (this.emailOf.get(userId) as { email: string | null } | undefined)?.email;
    if (!to) return; // a demo or phone-only account: the socket, the phones and the list are its channels
    sendMessage(this.db, this.options, 'email', to, words.subject, words.note ? `${words.body}\n\n${words.note}` : words.body);
  }
}
