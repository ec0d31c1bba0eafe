/** The Contract screen's trading session: today and the next six London days, the zone named, and what happens next. */
import type { TFunction } from 'i18next';
import { useTranslation } from '~/i18n/react';
import { formatMoment } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import { londonZone, type DayPiece, type NextChange, type SessionDay } from './sessions';

export interface SessionData {
  days: SessionDay[];
  next: NextChange;
  /** London's zone today (the loader's `now`). */
  zone: ReturnType<typeof londonZone>;
}

/** What the section says, in the trader's language: the zone, the state now and what comes next, and each day's hours. */
export function sessionTexts(session: SessionData, marketOpen: boolean, t: TFunction, locale: string) {
  const clock = (seconds: number) => formatMoment(seconds * 1000, 'clock', locale);
  const piece = (p: DayPiece) =>
    p.kind === 'allDay'
      ? t('session.allDay')
      : p.kind === 'from'
        ? t('session.from', { time: clock(p.from) })
        : p.kind === 'until'
          ? t('session.until', { time: clock(p.to) })
          : t('session.between', { from: clock(p.from), to: clock(p.to) });
  const { next } = session;
  // A change is named in the zone London keeps at that moment (it may differ from today's across a clock change).
  const when = (at: number) => `${formatMoment(at * 1000, 'dayClock', locale)} ${londonZone(at).name}`;
  const scheduledOpen = next.kind === 'close' || next.kind === 'never-closes';
  return {
    zone: t('session.zone', { zone: session.zone.name, offset: session.zone.utcOffsetHours }),
    now: marketOpen ? t('session.openNow') : t('session.closedNow'),
    // Forced open or closed against its hours: the schedule says nothing of when that ends.
    next:
      scheduledOpen !== marketOpen
        ? null
        : next.kind === 'close'
          ? t('session.nextClose', { time: when(next.at) })
          : next.kind === 'open'
            ? t('session.nextOpen', { time: when(next.at) })
            : next.kind === 'never-closes'
              ? t('session.neverCloses')
              : t('session.neverOpens'),
    days: session.days.map((d) => ({
      start: d.start,
      today: d.today,
      name: t(`session.weekday${d.weekday}`),
      hours: d.pieces.length === 0 ? t('session.closed') : d.pieces.map(piece).join(', '),
    })),
  };
}

export function SessionTable({ session, marketOpen }: { session: SessionData; marketOpen: boolean }) {
  const { t } = useTranslation('contract');
  const texts = sessionTexts(session, marketOpen, t, useLocale());
  return (
    <section aria-labelledby="contract-session">
      <h2 id="contract-session">{t('session.heading')}</h2>
      <p data-testid="contract-zone">{texts.zone}</p>
      <p data-testid="contract-next">
        <strong>{texts.now}</strong>
        {texts.next ? ` ${texts.next}` : null}
      </p>
      <table className="contract-table" data-testid="contract-sessions">
        <caption className="visually-hidden">{t('session.heading')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('session.day')}</th>
            <th scope="col">{t('session.hours')}</th>
          </tr>
        </thead>
        <tbody>
          {texts.days.map((d) => (
            <tr key={d.start} aria-current={d.today ? 'date' : undefined}>
              <th scope="row">
                {d.name}
                {d.today ? <small className="muted"> {t('session.today')}</small> : null}
              </th>
              <td>{d.hours}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
