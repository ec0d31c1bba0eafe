/**
 * /alerts (issue 13): the trader's price alerts — those waiting and those that fired, with their time —
 * an add form for the product of the trade screen's link (`?code=`), and delete with a confirmation in
 * the URL (`?confirm=delete&id=`). Every form posts here with its CSRF token and works without JavaScript.
 */
import type { SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { ErrorCode } from '#contract/errors';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { PageHeader } from '~/components/page-header';
import { PushSwitch } from '~/components/push-switch';
import { translator } from '~/i18n/i18next.server';
import { useLiveStream } from '~/live/hooks';
import { failureMessage, loaderFailure, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { addAlert, deleteAlert } from '~/upstream/alerts.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { validateCsrf } from '~/utils/csrf.server';
import { replyToFailure } from '~/utils/form-action.server';
import { formatPrice } from '~/utils/format';
import { pageTitle } from '~/utils/page-title';
import { redirectWithToast, requireSignedIn } from '~/utils/session.server';
import { LANGUAGE_TAGS } from '#contract/languages';
import fundsCss from '~/styles/funds.css?inline';
import { AddAlertForm } from './add-alert-form';
import { AlertLists, useAlertWords } from './alert-list';
import { instrumentsForAlerts, loadAlertsScreen, pickInstrument } from './queries.server';
import { addAlertSchema, DeleteAlertSchema } from './schema';
import { sideFor } from './side';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const screenUrl = (code: string) => `/alerts?code=${encodeURIComponent(code)}`;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'alerts');
  try {
    const screen = await loadAlertsScreen(api, new URL(request.url));
    // The add form draws its fields from these; its schema loads after the page (decision 0028).
    return { title: t('title'), ...screen, constraint: getZodConstraint(addAlertSchema(screen.instrument.digits)) };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const api = await upstreamApi(request, context);
  const { t, lang } = await translator(request, 'alerts');
  const code = String(formData.get('code') ?? '');
  if (formData.get('intent') === 'delete') {
    const parsed = DeleteAlertSchema.safeParse({ intent: formData.get('intent'), id: formData.get('id') });
    if (!parsed.success) throw new Response('Bad request', { status: 400 });
    const back = code ? screenUrl(code) : '/alerts';
    try {
      await deleteAlert(api, parsed.data.id);
      return await redirectWithToast(request, back, { kind: 'success', message: t('deleted') });
    } catch (error) {
      if (!(error instanceof UpstreamError) && !(error instanceof UpstreamUnavailable)) throw error;
      return redirectWithToast(request, back, { kind: 'error', message: await failureMessage(request, error) });
    }
  }
  let instruments;
  try {
    instruments = await instrumentsForAlerts(api);
  } catch (error) {
    return loaderFailure(request, error);
  }
  const instrument = pickInstrument(instruments, code);
  if (!instrument) throw new Response('No products are listed right now.', { status: 503 });
  const { digits, quote } = instrument;
  const schema = addAlertSchema(digits).superRefine((f, ctx) => {
    // No direction chosen: the price decides, against the current one.
    if (!f.direction && !sideFor(f.price, quote.price, digits))
      ctx.addIssue({ code: 'custom', path: ['direction'], message: 'alerts:validation.direction' });
  });
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const f = submission.value;
  const direction = f.direction ?? sideFor(f.price, quote.price, digits)!;
  try {
    const added = await addAlert(api, { instrumentId: instrument.id, direction, price: f.price, note: f.note });
    const price = formatPrice(added.level, added.digits, LANGUAGE_TAGS[lang]);
    const words = t(added.direction === 'above' ? 'risesTo' : 'fallsTo', { symbol: added.symbol, price });
    return await redirectWithToast(request, screenUrl(instrument.code), { kind: 'success', message: t('added', { alert: words }) });
  } catch (error) {
    return replyToFailure(
      request,
      error,
      { [ErrorCode.PriceInvalid]: 'price', [ErrorCode.AlertWrongSide]: 'direction' },
      (fieldErrors, formErrors, status) => data({ result: submission.reply({ fieldErrors, formErrors }) }, { status }),
    );
  }
}

export default function AlertsPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('alerts');
  const words = useAlertWords();
  // The current price moves while the trader types: the direction follows it (the one instrument shown).
  useLiveStream({ quotes: [page.instrument.id] });
  const here = screenUrl(page.instrument.code);
  return (
    <main className="page funds-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <PageHeader title={t('title')} back={`/trade?code=${encodeURIComponent(page.instrument.code)}`} />
      <AddAlertForm
        key={page.instrument.code}
        instrument={page.instrument}
        instruments={page.instruments}
        price={page.price}
        constraint={page.constraint}
        lastResult={actionData?.result as SubmissionResult<string[]> | undefined}
      />
      <PushSwitch />
      <AlertLists active={page.active} triggered={page.triggered} confirmHref={(id) => `${here}&confirm=delete&id=${id}`} />
      {page.deleting ? (
        <ConfirmDialog
          title={t('confirmTitle')}
          message={t('confirmMessage', { alert: words(page.deleting) })}
          confirmLabel={t('delete')}
          action={here}
          intent="delete"
          fields={{ id: String(page.deleting.id), code: page.instrument.code }}
          cancelTo={here}
          danger
        />
      ) : null}
    </main>
  );
}
