/**
 * Back from a step-up (decision 0039): the kept form is confirmed, and one tap finishes it. The same confirmation
 * as everywhere (open in the server's page, so it works without JavaScript); it posts only the kept form's id. A page
 * shows it only until its action answers: after a refusal, the form with its message is what the user needs.
 */
import { useLocation, useSearchParams } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { ConfirmDialog } from './confirm-dialog';

export function StepUpFinish({ id, label, cancelTo, danger }: { id: string; label: string; cancelTo: string; danger?: boolean }) {
  const { t } = useTranslation('security');
  const location = useLocation();
  return (
    <ConfirmDialog
      title={t('finish.title')}
      message={t('finish.message', { action: label })}
      confirmLabel={label}
      action={`${location.pathname}${location.search}`}
      fields={{ resume: id, finish: '1' }}
      cancelTo={cancelTo}
      danger={danger}
    />
  );
}

/** After a refusal on a finished form, the next post keeps the grant (the kept form's id, never the grant). */
export function KeptGrantInput() {
  const [params] = useSearchParams();
  const id = params.get('resume');
  return id ? <input type="hidden" name="resume" value={id} /> : null;
}
