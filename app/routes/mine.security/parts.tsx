/** The Security screen's parts: the status with its buttons, the authenticator's set-up, the recovery codes. */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from '@remix-run/react';
import { CopyField } from '~/components/copy-field';
import { FactorCodeField } from '~/components/factor-code';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { lateValidation, useLateSchemaCheck, type Constraint } from '~/components/late-checks';
import { useTranslation } from '~/i18n/react';
import type { SecurityState } from '~/upstream/security.server';
import { formatMoment } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';

const loadSchemas = () => import('~/components/factor-code-schema');

export function SecurityStatusCard({ status, lastResult }: { status: SecurityState; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('security');
  const locale = useLocale();
  const [form] = useForm({ id: 'security', lastResult });
  return (
    <section className="invite-card" aria-labelledby="security-authenticator">
      <h2 id="security-authenticator">{t('authenticator.title')}</h2>
      <p className="muted">{t('authenticator.explain')}</p>
      <dl>
        <div className="mine-details">
          <dt>{t('authenticator.state')}</dt>
          <dd>{status.authenticatorOn ? t('authenticator.on') : t('authenticator.off')}</dd>
        </div>
        {status.authenticatorOn ? (
          <div className="mine-details">
            <dt>{t('authenticator.codesLeft')}</dt>
            <dd>{status.recoveryCodesLeft}</dd>
          </div>
        ) : null}
      </dl>
      {status.withdrawalsHeldUntil ? (
        <p className="notice warn">{t('withdrawalsHeld', { until: formatMoment(status.withdrawalsHeldUntil, 'dateTime', locale) })}</p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="form">
        <CsrfInput />
        <FormError id={form.errorId} errors={form.errors} />
        {status.authenticatorOn ? (
          <SubmitButton name="intent" value="off" className="button danger block">
            {t('off.submit')}
          </SubmitButton>
        ) : (
          <SubmitButton name="intent" value="setup">
            {t('setup.start')}
          </SubmitButton>
        )}
      </Form>
      <p className="link-row">
        <Link to="/mine/devices">{t('devices')}</Link>
      </p>
    </section>
  );
}

export function AuthenticatorSetup({
  secret,
  qr,
  constraint,
  lastResult,
}: {
  secret: string;
  qr: string;
  constraint: Constraint;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation('security');
  const late = useLateSchemaCheck(loadSchemas, (m) => m.FactorCodeFormSchema);
  const [form, fields] = useForm({ id: 'totp-setup', constraint, lastResult, ...lateValidation(late?.check) });
  return (
    <section className="invite-card" id="setup" aria-labelledby="setup-title">
      <h2 id="setup-title">{t('setup.title')}</h2>
      <ol>
        <li>{t('setup.step1')}</li>
        <li>{t('setup.step2')}</li>
        <li>{t('setup.step3')}</li>
      </ol>
      <figure className="qr">
        <div role="img" aria-label={t('setup.qr')} dangerouslySetInnerHTML={{ __html: qr }} />
        <figcaption className="muted">{t('setup.qr')}</figcaption>
      </figure>
      <CopyField label={t('setup.secret')} value={secret} dir="ltr" />
      <Form method="post" {...getFormProps(form)} className="form">
        <CsrfInput />
        <FormError id={form.errorId} errors={form.errors} />
        <FactorCodeField meta={fields.code} label={t('setup.code')} />
        <SubmitButton name="intent" value="confirm">
          {t('setup.confirm')}
        </SubmitButton>
        <SubmitButton name="intent" value="cancel-setup" className="button secondary block">
          {t('setup.cancel')}
        </SubmitButton>
      </Form>
    </section>
  );
}

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('security');
  return (
    <section className="invite-card" id="codes" aria-labelledby="codes-title">
      <h2 id="codes-title">{t('codes.title')}</h2>
      <p className="notice warn">{t('codes.keep')}</p>
      <ol className="recovery-codes" dir="ltr" aria-label={t('codes.title')}>
        {codes.map((c) => (
          <li key={c} className="mono">
            {c}
          </li>
        ))}
      </ol>
      <p className="muted">{t('codes.once')}</p>
    </section>
  );
}
