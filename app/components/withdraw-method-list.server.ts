/** The loader and action of the two lists of bound withdrawal methods (coin addresses, bank cards). */
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import type { WithdrawType } from '#contract/enums';
import { translator } from '~/i18n/i18next.server';
import { failureMessage, loaderFailure, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { deleteMethod, withdrawMethods } from '~/upstream/funds.server';
import { validateCsrf } from '~/utils/csrf.server';
import { requireRealAccount } from '~/utils/guards.server';
import { redirectWithToast } from '~/utils/session.server';
import { askStepUp, forgetKeptForm, needsStepUp, readyToFinish, resumeStepUp } from '~/utils/step-up.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { METHOD_LISTS } from './withdraw-method-list';

export function methodListLoader(type: WithdrawType) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    await requireRealAccount(request);
    const api = await upstreamApi(request, context);
    const { t } = await translator(request, 'withdraw');
    try {
      const methods = await withdrawMethods(api, type);
      const confirm = new URL(request.url).searchParams.get('confirm') ?? '';
      const deleting = /^delete-\d+$/.test(confirm) ? (methods.find((m) => m.id === Number(confirm.slice(7))) ?? null) : null;
      const finishing = await readyToFinish(request, 'delete_method');
      return { title: t(METHOD_LISTS[type].titleKey), type, methods, deleting, finishing, now: Date.now() };
    } catch (error) {
      return loaderFailure(request, error);
    }
  };
}

export function methodListAction(type: WithdrawType) {
  const { path } = METHOD_LISTS[type];
  return async ({ request, context }: ActionFunctionArgs) => {
    await requireRealAccount(request);
    const posted = await readBoundedForm(request);
    await validateCsrf(posted, request.headers);
    // Back from a step-up: the kept form with its grant (decision 0039).
    const { formData, grant, keptId } = await resumeStepUp(request, posted, 'delete_method');
    const id = Number(formData.get('id'));
    const { t } = await translator(request, 'withdraw');
    const api = await upstreamApi(request, context);
    try {
      if (!Number.isInteger(id) || id <= 0) throw new Response('Bad request', { status: 400 });
      await deleteMethod(api, id, grant);
      await forgetKeptForm(keptId);
      return await redirectWithToast(request, path, { kind: 'success', message: t('methods.deleted') });
    } catch (error) {
      if (needsStepUp(error)) return askStepUp(request, 'delete_method', formData, path);
      if (error instanceof UpstreamError || error instanceof UpstreamUnavailable) {
        return redirectWithToast(request, path, { kind: 'error', message: await failureMessage(request, error) });
      }
      throw error;
    }
  };
}
