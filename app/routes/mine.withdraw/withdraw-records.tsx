/** The withdrawal records under the form: amount, state, fee and amount received, when, and where to. */
import { useCallback } from 'react';
import { useTranslation } from '~/i18n/react';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { maskedAccount, shortAddress } from '~/components/withdraw-method-list';
import type { WithdrawRecord } from '~/upstream/funds.server';
import { formatMoney } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';
import type { WithdrawType } from '#contract/enums';
import { withdrawUrl } from './withdraw-url';

const STATE_CLASS = { pending: 'pending', paid: 'paid', rejected: 'rejected' } as const;

export function WithdrawRecords({ first, type }: { first: ListPage<WithdrawRecord>; type: WithdrawType }) {
  const { t } = useTranslation('withdraw');
  const locale = useLocale();
  const history = usePagedList<WithdrawRecord>(
    first,
    (w) => w.id,
    useCallback((n: number) => withdrawUrl(type, { page: String(n) }), [type]),
  );
  return (
    <section className="funds-history" aria-labelledby="withdraw-history">
      <h2 id="withdraw-history">{t('history.title')}</h2>
      {history.items.length === 0 ? (
        <p className="empty">{t('history.empty')}</p>
      ) : (
        <ul className="records" aria-labelledby="withdraw-history">
          {history.items.map((w) => (
            <li key={w.id} className="record">
              <span className="record-amount">{formatMoney(w.amount, locale)} USD</span>
              <span className={`record-state ${STATE_CLASS[w.state]}`}>{w.stateName}</span>
              <span className="muted">
                {t('history.feeReceived', { fee: formatMoney(w.fee, locale), received: formatMoney(w.received, locale) })}
              </span>
              <time className="muted" dateTime={w.time}>
                {formatDateTime(w.time, locale)}
              </time>
              <span className="muted record-remark">
                {w.address
                  ? `${w.currency} · ${w.network} → ${shortAddress(w.address)}`
                  : `${w.bankName ?? ''} ${maskedAccount(w.payeeAccount ?? '')}`}
              </span>
              {w.remark ? <span className="record-remark">{t('history.remark', { remark: w.remark })}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {history.hasMore ? <NextPageLink to={history.nextUrl} loading={history.loading} onLoad={history.loadMore} /> : null}
    </section>
  );
}
