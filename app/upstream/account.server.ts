/** Spec §7 "Account and session": one function per call. */
import * as account from '#contract/calls/account';
import type { z } from 'zod/v4';
import type { Api } from './api.server';
import { sharedAnswers } from './warm-market.server';

type In<C extends { request: z.ZodTypeAny }> = z.input<C['request']>;

/** What a log-in's second step takes: the authenticator's code, a passkey, or a code sent to the e-mail or phone. */
export type LoginFactor = 'totp' | 'passkey' | 'email' | 'sms';

/**
 * A log-in's answer: the session, or, for an account with a second factor (issue 38), the ticket the second step is
 * asked with and what that step takes.
 */
export async function login(
  api: Api,
  input: In<typeof account.loginForU>,
): Promise<{ session: z.output<typeof account.SessionSchema> } | { factorTicket: string; factors: LoginFactor[] }> {
  const { data } = await api.call(account.loginForU, input);
  return 'factor_required' in data ? { factorTicket: data.ticket, factors: data.factors } : { session: data };
}
export const demoLogin = (api: Api, demoId: string) => api.call(account.createAccountDemoForU, { demo_id: demoId });
export const logout = (api: Api, token: string) => api.call(account.logout, {}, { token, initial: true });
export const register = (api: Api, input: In<typeof account.register>) => api.call(account.register, input);
export const sendEmailCode = (api: Api, input: In<typeof account.sendEmail>) => api.call(account.sendEmail, input);
export const sendSmsCode = (api: Api, input: In<typeof account.sendSms>) => api.call(account.sendSms, input);
export const captcha = (api: Api) => api.call(account.captcha, {});
export const forgetPassword = (api: Api, input: In<typeof account.forgetPassword>) => api.call(account.forgetPassword, input);
export const amendPassword = (api: Api, input: In<typeof account.amendPassword>) => api.call(account.amendPassword, input);
export const areaList = (api: Api) => api.call(account.areaList, {});
const fetchShowMobile = (api: Api) => api.call(account.setting, { key: 'is_show_mobile' });
const showMobileAnswers = sharedAnswers<Awaited<ReturnType<typeof fetchShowMobile>>>();
/**
 * Whether log-in and sign-up offer phones, reused for a few seconds like the other base settings: it was the only
 * upstream call of every `/login` view (a back-office change shows within SHARED_ANSWER_TTL_MS).
 */
export const showMobileSetting = (api: Api) => showMobileAnswers.get(api.upstreamUrl, () => fetchShowMobile(api));
export const basicInfo = (api: Api) => api.call(account.getBasicInfo, {});
const feeTypes = sharedAnswers<number>();
/** The fee rule of the trade screen's estimate, reused for a few seconds (the upstream charges by its own, current rule). */
export const tradeFeeType = (api: Api) => feeTypes.get(api.upstreamUrl, () => basicInfo(api).then((r) => r.data.trade_fee_type));
export const inviteInfo = (api: Api) => api.call(account.inviteInfo, {});
