/**
 * /register (spec §2, §5): e-mail, password twice, the e-mailed code (or a picture code when the base
 * settings say so), an optional invite code (`?invite_code=` fills it in) and the phone fields the
 * `is_show_mobile` setting asks for. A plain form post without JavaScript; conform validates in the
 * browser with the same schema. A demo account may register: the new session replaces it.
 */
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { AccountType, CodePurpose, ShowMobile, VerifyRegType } from '#contract/enums';
import { AreaCodeSelect } from '~/components/area-code-select';
import { AuthFormPage } from '~/components/auth-form-page';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { SEND_CODE_INTENT, VerificationCodeField } from '~/components/verification-code';
import { resendWait, sendCode } from '~/components/verification-code.server';
import { translator } from '~/i18n/i18next.server';
import { areaList, basicInfo, captcha, register, showMobileSetting } from '~/upstream/account.server';
import { loaderFailure, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { invalid, readForm, replyWithFailure } from '~/utils/form-action.server';
import { keptFields, redirectKeepingFields } from '~/utils/kept-fields.server';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { getSignedIn, startSession } from '~/utils/session.server';
import { CaptchaField, NEW_PICTURE_INTENT } from './captcha-field';
import { RegisterCaptchaFormSchema, RegisterFormSchema, RegisterSendCodeSchema } from './schema';
import { pageTitle } from '~/utils/page-title';

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const SECRETS = ['password', 're_password'];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const from = safeRedirectPath(url.searchParams.get('from'), '/');
  const signedIn = await getSignedIn(request);
  if (signedIn && !signedIn.user.isDemo) throw redirect(from);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'auth');
  try {
    const [basic, phone] = await Promise.all([
      basicInfo(api),
      // The phone fields are an extra: if the setting cannot be read, sign-up by e-mail still works.
      showMobileSetting(api).then((r) => r.data.value, upstreamFallback(ShowMobile.Hidden, 'the phone sign-up setting')),
    ]);
    const byPicture = basic.data.verify_reg_type === VerifyRegType.Captcha;
    const [picture, areas] = await Promise.all([
      byPicture ? captcha(api).then((r) => r.data) : null,
      phone === ShowMobile.AreaAndPhone ? areaList(api).then((r) => r.data, upstreamFallback([], 'area codes')) : [],
    ]);
    return {
      title: t('register.title'),
      from,
      inviteCode: (url.searchParams.get('invite_code') ?? '').trim().slice(0, 32),
      /** What was typed before a code was sent or a new picture asked for, without JavaScript. */
      kept: await keptFields(request),
      picture,
      phone,
      areas,
      resendIn: byPicture ? 0 : await resendWait(request, CodePurpose.Register),
      constraint: getZodConstraint(byPicture ? RegisterCaptchaFormSchema : RegisterFormSchema),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const read = await readForm(request, RegisterFormSchema);
  const { formData } = read;
  const api = await upstreamApi(request, context);
  const intent = formData.get('intent');
  if (intent === SEND_CODE_INTENT) {
    const submission = parseWithZod(formData, { schema: RegisterSendCodeSchema });
    if (submission.status !== 'success') return invalid(submission);
    const to = submission.value.account;
    return sendCode(request, api, submission, CodePurpose.Register, { channel: 'email', to }, { formData, secrets: SECRETS });
  }
  if (intent === NEW_PICTURE_INTENT) {
    // The page comes back with what was typed (a GET page: Post/Redirect/Get); its loader draws the new picture.
    return redirectKeepingFields(request, formData, [...SECRETS, 'sms_code', 'key']);
  }
  const byPicture = formData.has('key');
  const submission = byPicture ? parseWithZod(formData, { schema: RegisterCaptchaFormSchema }) : read.submission;
  // A picture answers once: after any failure the page shows a new one and an empty answer.
  const hidden = byPicture ? [...SECRETS, 'sms_code'] : SECRETS;
  if (submission.status !== 'success') return invalid(submission, hidden);
  const { from, account, password, re_password, sms_code, key, invite_code, area_id, mobile } = submission.value;
  try {
    const session = await register(api, {
      type: AccountType.Email,
      account,
      password,
      re_password,
      sms_code,
      key,
      invite_code,
      area_id: mobile ? area_id : undefined,
      mobile,
    });
    const { t } = await translator(request, 'auth');
    return await startSession(request, session.data, safeRedirectPath(from, '/'), { kind: 'success', message: t('register.success') });
  } catch (error) {
    return replyWithFailure(request, submission, error, hidden);
  }
}

// A picture answers once: after any post that carried one (a refused one too), draw a new picture.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.has('key') ? true : defaultShouldRevalidate;

export default function RegisterPage() {
  const { from, inviteCode, kept, picture, phone, areas, resendIn, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('auth');
  const byPicture = !!picture;
  const [form, fields, schemas] = useLateSchemaForm(loadSchemas, (m) => (byPicture ? m.RegisterCaptchaFormSchema : m.RegisterFormSchema), {
    id: 'register',
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    defaultValue: { invite_code: inviteCode, ...kept },
  });
  const loginLink = from !== '/' ? `/login?${new URLSearchParams({ from })}` : '/login';
  const canSend = (payload: FormData) => {
    // Without the checks yet, the action checks the address.
    if (!schemas || schemas.RegisterSendCodeSchema.safeParse({ account: payload.get('account') }).success) return true;
    form.validate({ name: fields.account.name });
    return false;
  };
  return (
    <AuthFormPage
      title={t('register.title')}
      back={loginLink}
      form={form}
      intent="register"
      submitLabel={t('register.submit')}
      hidden={{ from }}
      link={{ to: loginLink, label: t('register.haveAccount') }}
    >
      <Field meta={fields.account} label={t('fields.email')} type="email" autoComplete="username" inputMode="email" />
      {phone === ShowMobile.AreaAndPhone ? (
        <AreaCodeSelect id="register-area" label={t('fields.areaCode')} areas={areas} defaultValue={fields.area_id.initialValue} />
      ) : null}
      {phone === ShowMobile.AreaAndPhone || phone === ShowMobile.PhoneOnly ? (
        <Field meta={fields.mobile} label={t('fields.mobileOptional')} type="tel" autoComplete="tel-national" inputMode="tel" />
      ) : null}
      <Field meta={fields.password} label={t('fields.password')} type="password" autoComplete="new-password" />
      <Field meta={fields.re_password} label={t('fields.rePassword')} type="password" autoComplete="new-password" />
      {picture ? (
        <CaptchaField meta={fields.sms_code} picture={picture} />
      ) : (
        <VerificationCodeField
          meta={fields.sms_code}
          label={t('fields.code')}
          resendIn={actionData && 'codeSent' in actionData ? actionData.codeSent.resendIn : resendIn}
          include={['account']}
          canSend={canSend}
        />
      )}
      <Field meta={fields.invite_code} label={t('fields.inviteCode')} autoComplete="off" />
    </AuthFormPage>
  );
}
