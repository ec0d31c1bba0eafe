/**
 * The Security screen's passkeys (issue 38): the list with each one's name, when it was added and last used; naming
 * one again (a plain form); removing one (a step-up first, as turning any factor off); adding one (JavaScript: the
 * phone's own prompt, see PasskeyButton).
 */
import { Form } from '@remix-run/react';
import { CsrfInput, SubmitButton } from '~/components/form-parts';
import { PasskeyButton } from '~/components/passkey-button';
import { useTranslation } from '~/i18n/react';
import type { PasskeyView } from '~/upstream/passkeys.server';
import { formatMoment } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';

/** `nameMax` comes with the page's data: the contract's calls stay out of the browser's code. */
export function PasskeyList({ passkeys, suggestedName, nameMax }: { passkeys: PasskeyView[]; suggestedName: string; nameMax: number }) {
  const { t } = useTranslation('security');
  const locale = useLocale();
  return (
    <section className="invite-card" id="passkeys" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('passkey.title')}</h2>
      <p className="muted">{t('passkey.explain')}</p>
      {passkeys.length === 0 ? <p>{t('passkey.none')}</p> : null}
      <ul className="passkey-list">
        {passkeys.map((p) => (
          <li key={p.id} className="passkey">
            <p className="passkey-name">{p.name}</p>
            <p className="muted">
              {t('passkey.added', { date: formatMoment(p.addedAt, 'dateTime', locale) })}
              {' · '}
              {p.lastUsedAt ? t('passkey.lastUsed', { date: formatMoment(p.lastUsedAt, 'dateTime', locale) }) : t('passkey.neverUsed')}
            </p>
            <Form method="post" className="form">
              <CsrfInput />
              <input type="hidden" name="id" value={p.id} />
              <div className="field">
                <label htmlFor={`passkey-${p.id}`}>{t('passkey.name')}</label>
                <input id={`passkey-${p.id}`} name="name" defaultValue={p.name} required maxLength={nameMax} />
              </div>
              <SubmitButton name="intent" value="passkey-rename" className="button secondary">
                {t('passkey.rename')}
              </SubmitButton>
              <SubmitButton name="intent" value="passkey-remove" className="button danger">
                {t('passkey.remove')}
              </SubmitButton>
            </Form>
          </li>
        ))}
      </ul>
      <PasskeyButton ceremony="register" intent="passkey-add" label={t('passkey.add')} withoutScript={t('passkey.needsScriptAdd')}>
        <div className="field">
          <label htmlFor="new-passkey-name">{t('passkey.name')}</label>
          <input id="new-passkey-name" name="name" defaultValue={suggestedName} required maxLength={nameMax} />
        </div>
      </PasskeyButton>
    </section>
  );
}
