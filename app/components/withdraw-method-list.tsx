/**
 * The bound withdrawal methods of one kind (spec §2 "list of bound coin addresses / bank cards"): each
 * row has a delete link that opens a confirmation in the URL (works without JavaScript); with JavaScript
 * a swipe to the left on a row opens the same confirmation.
 */
import { Link, useLoaderData, useNavigate } from '@remix-run/react';
import { useRef } from 'react';
import { useTranslation } from '~/i18n/react';
import { WithdrawType } from '#contract/enums';
import type { WithdrawMethod } from '~/upstream/funds.server';
import fundsCss from '~/styles/funds.css?inline';
import { ConfirmDialog } from './confirm-dialog';
import { PageHeader } from './page-header';
import { StepUpFinish } from './step-up-finish';
import { formatMoment } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';

/** Each kind's page and title (the page's header and its document title). */
export const METHOD_LISTS = {
  [WithdrawType.Bank]: { path: '/mine/bank-card-list', titleKey: 'mine:pages.bankCards' },
  [WithdrawType.Crypto]: { path: '/mine/coin-address-list', titleKey: 'mine:pages.coinAddresses' },
} as const;

/** An address shortened in the middle, the way wallets show it (both ends are what people compare). */
export function shortAddress(address: string): string {
  return address.length <= 16 ? address : `${address.slice(0, 8)}…${address.slice(-6)}`;
}

/** An account number with only its last four characters shown. */
export function maskedAccount(account: string): string {
  return account.length <= 4 ? account : `•••• ${account.slice(-4)}`;
}

/** The page of one kind's list (its route's default export). */
export function WithdrawMethodList() {
  const { type, methods, deleting, finishing, now } = useLoaderData<{
    type: WithdrawType;
    methods: WithdrawMethod[];
    deleting: WithdrawMethod | null;
    finishing: string | null;
    now: number;
  }>();
  const { t } = useTranslation('withdraw');
  const locale = useLocale();
  // A newly bound method is held (issue 38): the row says from when it can be used.
  const heldNote = (m: WithdrawMethod) =>
    m.usableAt !== null && m.usableAt > now ? (
      <span className="muted held">{t('methods.usableFrom', { time: formatMoment(m.usableAt, 'dateTime', locale) })}</span>
    ) : null;
  const bank = type === WithdrawType.Bank;
  const { path, titleKey } = METHOD_LISTS[type];
  const title = t(titleKey);
  const nameOf = (m: WithdrawMethod) =>
    bank ? `${m.bankName ?? ''} ${maskedAccount(m.payeeAccount ?? '')}` : `${m.currency} · ${m.network} ${shortAddress(m.address ?? '')}`;
  return (
    <>
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <main className="page funds-page">
        <PageHeader title={title} back="/mine/wallet" />
        {methods.length === 0 ? (
          <p className="empty">{t(bank ? 'methods.emptyBank' : 'methods.emptyCoin')}</p>
        ) : (
          <ul className="records method-list" aria-label={title}>
            {methods.map((m) => (
              <MethodRow key={m.id} confirmTo={`${path}?confirm=delete-${m.id}`} label={t('methods.delete')}>
                {bank ? (
                  <>
                    <strong>{m.bankName}</strong>
                    <span>{m.payeeName}</span>
                    <span className="mono">{maskedAccount(m.payeeAccount ?? '')}</span>
                    <span className="muted">{[m.currency, m.swift].filter(Boolean).join(' · ')}</span>
                    {heldNote(m)}
                  </>
                ) : (
                  <>
                    <strong>{t('currencyOption', { code: m.currency ?? '', network: m.network ?? '' })}</strong>
                    <span className="mono" title={m.address ?? ''}>
                      {shortAddress(m.address ?? '')}
                    </span>
                    {heldNote(m)}
                  </>
                )}
              </MethodRow>
            ))}
          </ul>
        )}
        <p className="funds-card-actions">
          <Link to={`/mine/withdraw-way?type=${type}&from=${encodeURIComponent(path)}`} className="button block">
            {t(bank ? 'methods.addBank' : 'methods.addCoin')}
          </Link>
        </p>
        {deleting ? (
          <ConfirmDialog
            title={t('methods.confirmTitle')}
            message={t('methods.confirmMessage', { name: nameOf(deleting) })}
            confirmLabel={t('methods.delete')}
            action={path}
            fields={{ id: String(deleting.id) }}
            cancelTo={path}
            danger
          />
        ) : null}
        {finishing ? <StepUpFinish id={finishing} label={t('methods.delete')} cancelTo={path} danger /> : null}
      </main>
    </>
  );
}

function MethodRow({ confirmTo, label, children }: { confirmTo: string; label: string; children: React.ReactNode }) {
  const navigate = useNavigate();
  const start = useRef<{ x: number; y: number } | null>(null);
  const row = useRef<HTMLDivElement>(null);
  return (
    <li className="record method">
      <div
        ref={row}
        className="method-body"
        onTouchStart={(e) => (start.current = { x: e.touches[0]!.clientX, y: e.touches[0]!.clientY })}
        onTouchMove={(e) => {
          const s = start.current;
          if (!s || !row.current) return;
          const dx = Math.min(0, e.touches[0]!.clientX - s.x);
          if (Math.abs(e.touches[0]!.clientY - s.y) < Math.abs(dx)) row.current.style.transform = `translateX(${Math.max(dx, -96)}px)`;
        }}
        onTouchEnd={(e) => {
          const s = start.current;
          start.current = null;
          if (row.current) row.current.style.transform = '';
          // A swipe to the left (in either writing direction the gesture is the same) asks to delete.
          if (s && s.x - e.changedTouches[0]!.clientX > 72) navigate(confirmTo, { preventScrollReset: true });
        }}
      >
        {children}
      </div>
      <Link to={confirmTo} className="button danger small" preventScrollReset>
        {label}
      </Link>
    </li>
  );
}
