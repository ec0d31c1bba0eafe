/**
 * /forgot (spec §2, §5): the account's e-mail, a new password twice and the code e-mailed to it. A plain
 * form post without JavaScript; conform validates in the browser with the same schema. Success goes to
 * /login with a toast; the upstream signs the account out everywhere.
 */
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { AccountType, CodePurpose } from '#contract/enums';
import { AuthFormPage } from '~/components/auth-form-page';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { SEND_CODE_INTENT, VerificationCodeField } from '~/components/verification-code';
import { resendWait, sendCode } from '~/components/verification-code.server';
import { translator } from '~/i18n/i18next.server';
import { forgetPassword } from '~/upstream/account.server';
import { upstreamApi } from '~/upstream/api.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { keptFields } from '~/utils/kept-fields.server';
import { redirectWithToast } from '~/utils/session.server';
import { ForgotFormSchema, ForgotSendCodeSchema } from './schema';
import { pageTitle } from '~/utils/page-title';

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const SECRETS = ['new_password', 'secondary_password'];

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await translator(request, 'auth');
  return {
    title: t('forgot.title'),
    resendIn: await resendWait(request, CodePurpose.Reset),
    /** What was typed before a code was sent, without JavaScript. */
    kept: await keptFields(request),
    constraint: getZodConstraint(ForgotFormSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { formData, submission } = await readForm(request, ForgotFormSchema);
  const api = await upstreamApi(request, context);
  if (formData.get('intent') === SEND_CODE_INTENT) {
    const asked = parseWithZod(formData, { schema: ForgotSendCodeSchema });
    if (asked.status !== 'success') return invalid(asked);
    return sendCode(request, api, asked, CodePurpose.Reset, { channel: 'email', to: asked.value.account }, { formData, secrets: SECRETS });
  }
  if (submission.status !== 'success') return invalid(submission, SECRETS);
  try {
    await forgetPassword(api, { type: AccountType.Email, ...submission.value });
    const { t } = await translator(request, 'auth');
    return await redirectWithToast(request, '/login', { kind: 'success', message: t('forgot.success') });
  } catch (error) {
    return replyWithFailure(request, submission, error, SECRETS);
  }
}

export default function ForgotPage() {
  const { resendIn, kept, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('auth');
  const [form, fields, schemas] = useLateSchemaForm(loadSchemas, (m) => m.ForgotFormSchema, {
    id: 'forgot',
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    defaultValue: kept,
  });
  const canSend = (payload: FormData) => {
    // Without the checks yet, the action checks the address.
    if (!schemas || schemas.ForgotSendCodeSchema.safeParse({ account: payload.get('account') }).success) return true;
    form.validate({ name: fields.account.name });
    return false;
  };
  return (
    <AuthFormPage
      title={t('forgot.title')}
      back="/login"
      form={form}
      intent="reset"
      submitLabel={t('forgot.submit')}
      link={{ to: '/login', label: t('forgot.backToLogin') }}
    >
      <Field meta={fields.account} label={t('fields.email')} type="email" autoComplete="username" inputMode="email" />
      <Field meta={fields.new_password} label={t('fields.newPassword')} type="password" autoComplete="new-password" />
      <Field meta={fields.secondary_password} label={t('fields.confirmNewPassword')} type="password" autoComplete="new-password" />
      <VerificationCodeField
        meta={fields.auth_code}
        label={t('fields.code')}
        resendIn={actionData && 'codeSent' in actionData ? actionData.codeSent.resendIn : resendIn}
        include={['account']}
        canSend={canSend}
      />
    </AuthFormPage>
  );
}
