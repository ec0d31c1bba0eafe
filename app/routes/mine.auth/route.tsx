/**
 * /mine/auth, real-name authentication (spec §2, §4, §5): name, ID number and both sides of the document
 * (one file per upload), then "under review", then "certified". A rejection shows the form again with the
 * back office's reason. One multipart post without JavaScript; with it each photo is shrunk and sent first.
 */
import { getFormProps } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { ImageUploadField, type UploadedImage } from '~/components/image-upload-field';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { uploadImage, uploadPreviewPath, uploadRef } from '~/upstream/funds.server';
import { identityState, submitIdentity } from '~/upstream/identity.server';
import { readUploadForm, replyToFailure } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';
import { redirectWithToast } from '~/utils/session.server';
import fundsCss from '~/styles/funds.css?inline';
import { pageTitle } from '~/utils/page-title';
import { IdentitySchema } from './schema';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

const SIDES = [
  { file: 'front', ref: 'front_pic' },
  { file: 'back', ref: 'reverse_pic' },
] as const;

/** Upstream refusals that belong next to a field. */
const FIELD_OF_CODE: Record<number, string> = { 5001: 'name', 5002: 'card_id', 5003: 'reverse_pic', 5006: 'front_pic', 5005: 'front_pic' };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    return { title: t('entries.auth'), identity: await identityState(api), constraint: getZodConstraint(IdentitySchema) };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const { formData, files, oversized } = await readUploadForm(
    request,
    SIDES.map((s) => s.file),
  );
  const submission = parseWithZod(formData, { schema: IdentitySchema });
  const refs: Record<string, string | null> = Object.fromEntries(SIDES.map((s) => [s.ref, uploadRef(formData.get(s.ref))]));
  const reply = (fieldErrors: Record<string, string[]> = {}, formErrors?: string[], status = 400) =>
    data(
      {
        result: submission.reply({ fieldErrors, formErrors, hideFields: SIDES.map((s) => s.file) }),
        uploaded: Object.fromEntries(
          SIDES.map((s) => [s.ref, refs[s.ref] ? { ref: refs[s.ref]!, preview: uploadPreviewPath(refs[s.ref]!) } : null]),
        ),
      },
      { status },
    );
  const api = await upstreamApi(request, context);
  try {
    const tooLarge: Record<string, string[]> = {};
    for (const side of SIDES) {
      if (oversized.has(side.file)) tooLarge[side.ref] = ['common:upload.tooLarge'];
      const file = files[side.file];
      // Each good photo is kept (by reference) even when another field needs fixing.
      if (file) refs[side.ref] = await uploadImage(api, file, file.name);
    }
    if (Object.keys(tooLarge).length > 0) return reply(tooLarge);
    if (submission.status !== 'success') return reply();
    const missing = SIDES.filter((s) => !refs[s.ref]);
    if (missing.length > 0) return reply(Object.fromEntries(missing.map((s) => [s.ref, ['identity:validation.images']])));
    await submitIdentity(api, {
      name: submission.value.name,
      idNumber: submission.value.card_id,
      front: refs.front_pic!,
      back: refs.reverse_pic!,
    });
    const { t } = await translator(request, 'identity');
    return await redirectWithToast(request, '/mine/auth', { kind: 'success', message: t('submitted') });
  } catch (error) {
    return replyToFailure(request, error, FIELD_OF_CODE, reply);
  }
}

export default function IdentityPage() {
  const { identity, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('identity');
  const { t: tm } = useTranslation('mine');
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.IdentitySchema, {
    id: 'identity',
    constraint,
    lastResult: actionData?.result,
  });
  const uploaded = (actionData?.uploaded ?? {}) as Record<string, UploadedImage | null>;
  return (
    <main className="page funds-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <PageHeader title={tm('entries.auth')} back="/mine" />
      {identity.state === 'form' ? (
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form funds-card" replace>
          <CsrfInput />
          {identity.rejection ? (
            <p className="notice warn" role="alert">
              {t('rejected', { reason: identity.rejection })}
            </p>
          ) : (
            <p className="muted">{t('lead')}</p>
          )}
          <FormError id={form.errorId} errors={form.errors} />
          <Field meta={fields.name} label={t('name')} autoComplete="name" />
          <Field meta={fields.card_id} label={t('idNumber')} autoComplete="off" />
          <ImageUploadField
            label={t('front')}
            hint={t('hint')}
            fileName="front"
            refName="front_pic"
            uploaded={uploaded.front_pic}
            errors={fields.front_pic.errors}
          />
          <ImageUploadField
            label={t('back')}
            fileName="back"
            refName="reverse_pic"
            uploaded={uploaded.reverse_pic}
            errors={fields.reverse_pic.errors}
          />
          <SubmitButton>{t('submit')}</SubmitButton>
        </Form>
      ) : (
        <section className="funds-card identity-state" aria-live="polite">
          <h2>{identity.state === 'waiting' ? t('waiting.title') : t('certified.title')}</h2>
          <p>{identity.state === 'waiting' ? t('waiting.message') : t('certified.message')}</p>
          <dl className="figures">
            <div>
              <dt>{t('name')}</dt>
              <dd>{identity.name}</dd>
            </div>
            <div>
              <dt>{t('idNumber')}</dt>
              <dd className="mono">{identity.idNumber}</dd>
            </div>
          </dl>
        </section>
      )}
    </main>
  );
}
