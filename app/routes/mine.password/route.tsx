/**
 * /mine/password (spec §2, §5): a new password twice and a code sent to the account's own e-mail (or
 * phone). Login required; a demo account sees "Please register or log in to a real account" instead.
 * A plain form post without JavaScript; success goes to /mine with a toast, this session kept.
 */
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useSearchParams } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { z } from 'zod';
import type { Trader } from '#contract/views';
import { AccountType, CodePurpose } from '#contract/enums';
import { AuthFormPage } from '~/components/auth-form-page';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { SEND_CODE_INTENT, VerificationCodeField } from '~/components/verification-code';
import { resendWait, sendCode, type CodeDestination } from '~/components/verification-code.server';
import { translator } from '~/i18n/i18next.server';
import { amendPassword } from '~/upstream/account.server';
import { upstreamApi } from '~/upstream/api.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';
import { endOtherSessions, redirectWithToast } from '~/utils/session.server';
import { askStepUp, forgetKeptForm, needsStepUp, readyToFinish, resumeStepUp } from '~/utils/step-up.server';
import { StepUpFinish } from '~/components/step-up-finish';
import { ChangePasswordFormSchema } from './schema';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const SECRETS = ['new_password', 'secondary_password'];

/** The code goes where the account can receive it: its e-mail, else its phone. */
function codeDestination(user: Trader): CodeDestination {
  if (user.email) return { channel: 'email', to: user.email };
  return { channel: 'sms', to: user.mobile ?? '', areaId: user.areaId ?? 0 };
}

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRealAccount(request);
  const { t } = await translator(request, 'auth');
  return {
    title: t('changePassword.title'),
    destination: user.email ?? user.mobile,
    resendIn: await resendWait(request, CodePurpose.Reset),
    constraint: getZodConstraint(ChangePasswordFormSchema),
    finishing: await readyToFinish(request, 'change_password'),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireRealAccount(request);
  const read = await readForm(request, ChangePasswordFormSchema);
  // Back from a step-up: the kept form (the passwords stay on the server, never in a page) and its grant (decision 0039).
  const { formData, grant, keptId } = await resumeStepUp(request, read.formData, 'change_password');
  const submission = keptId ? parseWithZod(formData, { schema: ChangePasswordFormSchema }) : read.submission;
  const api = await upstreamApi(request, context);
  if (formData.get('intent') === SEND_CODE_INTENT) {
    // The upstream sends a signed-in user's reset code to their own address, whatever is typed.
    const asked = parseWithZod(formData, { schema: z.object({}) });
    return sendCode(request, api, asked, CodePurpose.Reset, codeDestination(user), { formData, secrets: SECRETS });
  }
  if (submission.status !== 'success') return invalid(submission, SECRETS);
  const { new_password, auth_code } = submission.value;
  try {
    await amendPassword(api, { new_password, auth_code, type: user.email ? AccountType.Email : AccountType.Mobile, grant });
    await forgetKeptForm(keptId);
    // The upstream ended the other devices' tokens: their rows go too.
    await endOtherSessions(request);
    const { t } = await translator(request, 'auth');
    return await redirectWithToast(request, '/mine', { kind: 'success', message: t('changePassword.success') });
  } catch (error) {
    if (needsStepUp(error)) return askStepUp(request, 'change_password', formData, '/mine/password');
    return replyWithFailure(request, submission, error, SECRETS);
  }
}

export default function ChangePasswordPage() {
  const { destination, resendIn, constraint, finishing } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.ChangePasswordFormSchema, {
    id: 'change-password',
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
  });
  // After a refusal on a finished form, posting again keeps the step-up's grant (the kept form's id only).
  const resume = searchParams.get('resume');
  return (
    <>
      <AuthFormPage
        key={resume && actionData ? 'kept' : 'typed'}
        title={t('changePassword.title')}
        back="/mine"
        form={form}
        intent="change"
        submitLabel={t('changePassword.submit')}
        hidden={resume ? { resume } : {}}
      >
        <Field meta={fields.new_password} label={t('fields.newPassword')} type="password" autoComplete="new-password" />
        <Field meta={fields.secondary_password} label={t('fields.confirmNewPassword')} type="password" autoComplete="new-password" />
        <VerificationCodeField
          meta={fields.auth_code}
          label={t('fields.code')}
          resendIn={actionData && 'codeSent' in actionData ? actionData.codeSent.resendIn : resendIn}
          destination={destination}
        />
      </AuthFormPage>
      {finishing && !actionData ? <StepUpFinish id={finishing} label={t('changePassword.submit')} cancelTo="/mine/password" /> : null}
    </>
  );
}
