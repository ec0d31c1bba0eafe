/** The popup after an order is placed (`?placed=<id>`): a link to the holding orders and one back. */
import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from '~/i18n/react';

export function OrderPlaced({ orderId, closeTo }: { orderId: number; closeTo: string }) {
  const { t } = useTranslation('trade');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="dialog-backdrop">
      <section className="dialog" role="dialog" aria-modal="true" aria-labelledby="order-placed-title">
        <h2 id="order-placed-title" ref={heading} tabIndex={-1}>
          {t('placed.title')}
        </h2>
        <p className="muted">{t('placed.number', { id: orderId })}</p>
        <div className="dialog-actions">
          <Link to={closeTo} className="button secondary" replace preventScrollReset>
            {t('placed.close')}
          </Link>
          <Link to="/order?type=1" className="button">
            {t('placed.viewOrders')}
          </Link>
        </div>
      </section>
    </div>
  );
}
