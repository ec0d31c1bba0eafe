import { longLivedCookie } from '~/utils/cookies.server';

/** The service provider chosen with "direct enter" (spec §9: kept three years). */
export const providerCookie = longLivedCookie('__Host-company');
