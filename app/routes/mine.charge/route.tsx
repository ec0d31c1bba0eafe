/**
 * /mine/charge, deposit (spec §2, §5, §7): by coin (choose a network, pay to the address shown with a QR
 * code drawn on the server) or by bank wire (the bank details), then the amount and a proof image. The
 * records below, newest first. One multipart post without JavaScript; with it the photo is shrunk and
 * sent first. Every typed field survives an error; a double tap never makes two deposits.
 */
import { getFormProps } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v3';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import QRCode from 'qrcode';
import { useCallback } from 'react';
import { useTranslation } from '~/i18n/react';
import { FUNDS_PAGE_SIZE } from '#contract/calls/funds';
import { CopyField } from '~/components/copy-field';
import { NextPageLink, usePagedList, type ListPage } from '~/components/endless-list';
import { Field } from '~/components/field';
import { useLateSchemaForm } from '~/components/late-checks';
import { CsrfInput, FormError, SubmitButton } from '~/components/form-parts';
import { ImageUploadField, type UploadedImage } from '~/components/image-upload-field';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import {
  depositChannels,
  depositRecords,
  submitCoinDeposit,
  submitWireDeposit,
  uploadImage,
  uploadPreviewPath,
  uploadRef,
  type DepositRecord,
} from '~/upstream/funds.server';
import { readUploadForm, replyToFailure } from '~/utils/form-action.server';
import { formatMoney } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { requireRealAccount } from '~/utils/guards.server';
import { useLocale } from '~/utils/locale';
import { redirectWithToast } from '~/utils/session.server';
import fundsCss from '~/styles/funds.css?inline';
import { DepositFormSchema } from './schema';
import { pageTitle } from '~/utils/page-title';

export { DemoBlockedBoundary as ErrorBoundary } from '~/components/demo-blocked';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

const PROOF_FILE = 'proof';
/** Upstream refusals that belong next to a field rather than above the form. */
const FIELD_OF_CODE: Record<number, 'amount' | 'proofImg' | 'channel'> = {
  4002: 'amount',
  4014: 'amount',
  4015: 'proofImg',
  4003: 'proofImg',
  4012: 'channel',
  4007: 'channel',
  5005: 'proofImg',
  5006: 'proofImg',
  5007: 'proofImg',
};

function chargeUrl(method: 'coin' | 'wire', channel?: number | null, page?: number) {
  const q = new URLSearchParams({ method });
  if (channel) q.set('channel', String(channel));
  if (page && page > 1) q.set('page', String(page));
  return `/mine/charge?${q}`;
}

/** The form's checks come after the page, with zod (decision 0028); until then the action checks every post. */
const loadSchemas = () => import('./schema');

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealAccount(request);
  const url = new URL(request.url);
  const method: 'coin' | 'wire' = url.searchParams.get('method') === 'wire' ? 'wire' : 'coin';
  const page = Math.min(Math.max(Number(url.searchParams.get('page')) || 1, 1), 10_000);
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'deposit');
  try {
    const [channels, history] = await Promise.all([depositChannels(api), depositRecords(api, page)]);
    const chosenId = Number(url.searchParams.get('channel')) || null;
    const coin = channels.coin.find((c) => c.id === chosenId) ?? null;
    const qr = coin ? await QRCode.toString(coin.address, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) : null;
    const list: ListPage<DepositRecord> = {
      list: 'deposits',
      page,
      items: history.records,
      hasMore: page * FUNDS_PAGE_SIZE < history.total,
    };
    return {
      title: t('title'),
      method,
      coins: channels.coin,
      wire: channels.wire[0] ?? null,
      coin,
      qr,
      ...list,
      // One per form shown: the same key again returns the first deposit instead of a second one.
      idempotencyKey: crypto.randomUUID(),
      constraint: getZodConstraint(DepositFormSchema),
    };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const { formData, file, tooLarge } = await readUploadForm(request, PROOF_FILE);
  const submission = parseWithZod(formData, { schema: DepositFormSchema });
  const key = String(formData.get('idempotency_key') ?? '');
  let proofRef = uploadRef(formData.get('proofImg'));
  const reply = (fieldErrors: Record<string, string[]> = {}, formErrors?: string[], status = 400) =>
    data(
      {
        result: submission.reply({ fieldErrors, formErrors, hideFields: [PROOF_FILE] }),
        key,
        uploaded: proofRef ? { ref: proofRef, preview: uploadPreviewPath(proofRef) } : null,
      },
      { status },
    );
  const api = await upstreamApi(request, context);
  try {
    // The photo first: a good one is kept (by reference) even when another field needs fixing.
    if (tooLarge) return reply({ proofImg: ['common:upload.tooLarge'] });
    if (file) proofRef = await uploadImage(api, file, file.name);
    if (submission.status !== 'success') return reply();
    if (!proofRef) return reply({ proofImg: ['deposit:validation.proofRequired'] });
    const form = submission.value;
    const { t } = await translator(request, 'deposit');
    if (form.method === 'coin') {
      const channel = (await depositChannels(api)).coin.find((c) => c.id === form.channel);
      if (!channel) return reply({ channel: ['deposit:validation.network'] });
      await submitCoinDeposit(api, { amount: form.amount, proofUrl: proofRef, channel, key: form.idempotency_key });
    } else {
      await submitWireDeposit(api, { amount: form.amount, proofUrl: proofRef, wireId: form.channel, key: form.idempotency_key });
    }
    return await redirectWithToast(request, chargeUrl(form.method, form.method === 'coin' ? form.channel : null), {
      kind: 'success',
      message: t('submitted'),
    });
  } catch (error) {
    return replyToFailure(request, error, FIELD_OF_CODE, reply);
  }
}

const STATE_KEYS = { pending: 'state.pending', finished: 'state.finished', rejected: 'state.rejected', invalid: 'state.invalid' } as const;

export default function DepositPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('deposit');
  const locale = useLocale();
  const [form, fields] = useLateSchemaForm(loadSchemas, (m) => m.DepositFormSchema, {
    id: 'deposit',
    constraint: page.constraint,
    lastResult: actionData?.result,
  });
  const history = usePagedList<DepositRecord>(
    page,
    (d) => d.id,
    useCallback((n: number) => chargeUrl(page.method, page.coin?.id, n), [page.method, page.coin?.id]),
  );
  const channelId = page.method === 'coin' ? page.coin?.id : page.wire?.id;
  const noChannel = page.method === 'coin' ? page.coins.length === 0 : page.wire === null;
  return (
    <main className="page funds-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: fundsCss }} />
      <PageHeader title={t('title')} back="/mine" />
      <nav className="segmented" aria-label={t('method.label')}>
        <Link to={chargeUrl('coin')} aria-current={page.method === 'coin' ? 'page' : undefined} replace>
          {t('method.coin')}
        </Link>
        <Link to={chargeUrl('wire')} aria-current={page.method === 'wire' ? 'page' : undefined} replace>
          {t('method.wire')}
        </Link>
      </nav>

      {noChannel ? (
        <p className="notice" role="status">
          {t('validation.noChannel')}
        </p>
      ) : (
        <>
          {page.method === 'coin' ? (
            <section className="funds-card" aria-labelledby="networks">
              <h2 id="networks">{t('network.label')}</h2>
              <ul className="chips" role="list">
                {page.coins.map((c) => (
                  <li key={c.id}>
                    <Link
                      to={chargeUrl('coin', c.id)}
                      className="chip"
                      aria-current={c.id === page.coin?.id ? 'true' : undefined}
                      replace
                      preventScrollReset
                    >
                      {t('network.option', { currency: c.currency, network: c.network })}
                    </Link>
                  </li>
                ))}
              </ul>
              {page.coin && page.qr ? (
                <div className="pay-to">
                  <div
                    className="qr"
                    role="img"
                    aria-label={t('network.qr', { currency: page.coin.currency, network: page.coin.network })}
                    dangerouslySetInnerHTML={{ __html: page.qr }}
                  />
                  <CopyField
                    label={t('network.address', { currency: page.coin.currency, network: page.coin.network })}
                    value={page.coin.address}
                  />
                  <p className="notice warn">{t('network.warning', { currency: page.coin.currency, network: page.coin.network })}</p>
                </div>
              ) : (
                <p className="muted">{t('network.choose')}</p>
              )}
            </section>
          ) : page.wire ? (
            <section className="funds-card" aria-labelledby="bank">
              <h2 id="bank">{t('wire.title', { currency: page.wire.currency })}</h2>
              <CopyField label={t('wire.payeeName')} value={page.wire.payeeName} />
              <CopyField label={t('wire.payeeAccount')} value={page.wire.payeeAccount} />
              <CopyField label={t('wire.bankName')} value={page.wire.bankName} />
              <CopyField label={t('wire.swift')} value={page.wire.swift} />
              <CopyField label={t('wire.bankAddress')} value={page.wire.bankAddress} />
            </section>
          ) : null}

          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form funds-card" replace>
            <CsrfInput />
            <input type="hidden" name="method" value={page.method} />
            {channelId ? <input type="hidden" name="channel" value={channelId} /> : null}
            <input type="hidden" name="idempotency_key" value={actionData?.key || page.idempotencyKey} />
            <FormError id={form.errorId} errors={form.errors} />
            {fields.channel.errors?.length ? (
              <p className="field-error" role="alert">
                {t(fields.channel.errors[0]!)}
              </p>
            ) : null}
            <Field meta={fields.amount} label={t('amount.label')} inputMode="decimal" autoComplete="off" placeholder="0.00" />
            <ImageUploadField
              label={t('proof.label')}
              hint={t('proof.hint')}
              fileName={PROOF_FILE}
              refName="proofImg"
              uploaded={actionData?.uploaded as UploadedImage | null | undefined}
              errors={fields.proofImg.errors}
            />
            <SubmitButton>{t('submit')}</SubmitButton>
          </Form>
        </>
      )}

      <section className="funds-history" aria-labelledby="deposit-history">
        <h2 id="deposit-history">{t('history.title')}</h2>
        {history.items.length === 0 ? (
          <p className="empty">{t('history.empty')}</p>
        ) : (
          <ul className="records" aria-labelledby="deposit-history">
            {history.items.map((d) => (
              <li key={d.id} className="record">
                <span className="record-amount">{formatMoney(d.amount, locale)} USD</span>
                <span className={`record-state ${d.state}`}>{t(STATE_KEYS[d.state])}</span>
                <span className="muted">
                  {d.rail === 'coin' ? `${d.currency} · ${d.network}` : t('history.wire', { currency: d.currency })}
                </span>
                <time className="muted" dateTime={d.time}>
                  {formatDateTime(d.time, locale)}
                </time>
                {d.remark ? <span className="record-remark">{t('history.remark', { remark: d.remark })}</span> : null}
              </li>
            ))}
          </ul>
        )}
        {history.hasMore ? <NextPageLink to={history.nextUrl} loading={history.loading} onLoad={history.loadMore} /> : null}
      </section>
    </main>
  );
}
