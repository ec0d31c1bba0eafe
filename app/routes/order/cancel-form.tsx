/** "Cancel order" on a pending order: one button, the upstream's refusal above it. */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import type { Position } from '#contract/views';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { lateValidation, useLateSchemaCheck } from '~/components/late-checks';
import { loadSchemas, sentProps } from './popup-forms';

export function CancelForm({
  order,
  lastResult,
  onSend,
}: {
  order: Position;
  lastResult?: SubmissionResult<string[]>;
  onSend: () => void;
}) {
  const { t } = useTranslation('orders');
  const late = useLateSchemaCheck(loadSchemas, (m) => m.CancelFormSchema);
  const [form] = useForm({
    id: `order-cancel-${order.id}`,
    lastResult,
    ...lateValidation(late?.check),
    shouldValidate: 'onSubmit',
  });
  return (
    <Form method="post" {...sentProps(getFormProps(form), onSend)} className="form order-command" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="id" value={order.id} />
      <FormError id={form.errorId} errors={form.errors} />
      <SubmitButton name="intent" value="cancel" className="button danger block">
        {t('detail.cancelOrder')}
      </SubmitButton>
    </Form>
  );
}
