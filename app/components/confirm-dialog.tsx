/**
 * A confirmation that lives in the URL (`?confirm=logout`): the server renders it open, so it works
 * without JavaScript. "Cancel" is a link back to the page without the query; the confirm button posts
 * the form (with its CSRF token). With JavaScript, Escape cancels and focus moves into the dialog.
 */
import { Form, Link } from '@remix-run/react';
import { useId } from 'react';
import { useTranslation } from '~/i18n/react';
import { CsrfInput, SubmitButton } from './form-parts';
import { useDialog } from './use-dialog';

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  action,
  intent,
  cancelTo,
  danger = false,
  fields,
  confirmTo,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  /** Where the confirm button posts (an index route needs `?index`). */
  action?: string;
  /** Sent as `intent` when the action serves more than one form. */
  intent?: string;
  cancelTo: string;
  danger?: boolean;
  /** Hidden fields the post carries (which item). */
  fields?: Record<string, string>;
  /** A confirmation that leads somewhere instead of posting (a link). */
  confirmTo?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useDialog<HTMLElement>({ to: cancelTo, replace: true });
  return (
    <div className="dialog-backdrop">
      <section
        ref={dialog}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-message`}
        tabIndex={-1}
      >
        <h2 id={`${id}-title`}>{title}</h2>
        <p id={`${id}-message`}>{message}</p>
        {confirmTo ? (
          <div className="dialog-actions">
            <Link to={cancelTo} className="button secondary" replace preventScrollReset>
              {t('actions.cancel')}
            </Link>
            <Link to={confirmTo} className="button">
              {confirmLabel}
            </Link>
          </div>
        ) : (
          <Form method="post" action={action} className="dialog-actions">
            <CsrfInput />
            {intent ? <input type="hidden" name="intent" value={intent} /> : null}
            {Object.entries(fields ?? {}).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <Link to={cancelTo} className="button secondary" replace preventScrollReset>
              {t('actions.cancel')}
            </Link>
            <SubmitButton className={danger ? 'button danger' : 'button'}>{confirmLabel}</SubmitButton>
          </Form>
        )}
      </section>
    </div>
  );
}
