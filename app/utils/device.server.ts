import { longLivedCookie } from './cookies.server';

/** This device's demo account id: a uuid kept for three years, so the same phone gets the same demo back. */
export const deviceCookie = longLivedCookie('__Host-device');
