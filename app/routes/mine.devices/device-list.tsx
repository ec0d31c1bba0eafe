/** The list of signed-in devices and its two kinds of form (each a plain POST with its CSRF token). */
import { Form } from '@remix-run/react';
import { CsrfInput, SubmitButton } from '~/components/form-parts';
import { useTranslation } from '~/i18n/react';
import type { Device } from '~/upstream/devices.server';
import { deviceName } from '~/utils/device-name';
import { formatMoment } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';

/** A user agent in the trader's words: "Chrome on Android", or what of it is known. */
export function useDeviceWords(): (userAgent: string) => string {
  const { t } = useTranslation('devices');
  return (userAgent) => {
    const { browser, os } = deviceName(userAgent);
    if (browser && os) return t('browserOn', { browser, os });
    return browser ?? os ?? t('unknown');
  };
}

export function DeviceList({ devices }: { devices: Device[] }) {
  const { t } = useTranslation('devices');
  const locale = useLocale();
  const wordsOf = useDeviceWords();
  return (
    <ul className="devices" aria-label={t('listLabel')}>
      {devices.map((d) => {
        const words = wordsOf(d.userAgent);
        return (
          <li key={d.id} className="device">
            <h2 className="device-name">
              {words}
              {d.current ? <span className="badge">{t('thisDevice')}</span> : null}
            </h2>
            <dl className="details">
              <dt>{t('address')}</dt>
              <dd>
                <span className="device-address">{d.address}</span>
              </dd>
              <dt>{t('firstSeen')}</dt>
              <dd>{formatMoment(d.firstSeenAt, 'dateTime', locale)}</dd>
              <dt>{t('lastSeen')}</dt>
              <dd>{formatMoment(d.lastSeenAt, 'dateTime', locale)}</dd>
            </dl>
            {d.current ? null : (
              <Form method="post" className="device-end">
                <CsrfInput />
                <input type="hidden" name="id" value={d.id} />
                <SubmitButton className="button secondary" name="intent" value="end">
                  {t('end')}
                  <span className="visually-hidden"> {words}</span>
                </SubmitButton>
              </Form>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function EndOthersForm() {
  const { t } = useTranslation('devices');
  return (
    <Form method="post" className="devices-end-others">
      <CsrfInput />
      <SubmitButton className="button danger block" name="intent" value="end-others">
        {t('endOthers')}
      </SubmitButton>
    </Form>
  );
}
