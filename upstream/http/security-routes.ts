/** Account security (issue 38, contract/calls/security.ts), each call bound to its handler in accounts/security.ts. */
import type { FastifyInstance } from 'fastify';
import * as security from '../../contract/calls/security';
import type { Upstream } from '../upstream';
import { register, registerProtected } from './route';
import { userView } from './views';

export function registerSecurityRoutes(app: FastifyInstance, up: Upstream): void {
  const sec = up.security;
  register(app, up, security.securityStatus, ({ user }) => sec.status(user));
  register(app, up, security.totpSetup, ({ user }) => sec.totpSetup(user));
  register(app, up, security.totpConfirm, ({ input, user, token, ip }) => sec.totpConfirm(user, token!, input.code, ip));
  registerProtected(app, up, security.totpDisable, 'factor_off', ({ user }) => {
    sec.totpDisable(user);
    return null;
  });
  register(app, up, security.stepUpSend, ({ input, user, ip, lang }) => sec.stepUpSend(user, input.action, ip, lang));
  register(app, up, security.stepUp, ({ input, user, token, ip }) => sec.stepUp(user, token!, input.action, input.code, ip));
  register(app, up, security.loginFactor, async ({ input, device, lang }) => {
    const s = await sec.loginFactor(input.ticket, input.code, device, lang);
    return { token: s.token, user: userView(s.user) };
  });
  register(app, up, security.sessionList, ({ user, token }) => sec.sessions(user, token!));
  register(app, up, security.sessionEnd, ({ input, user }) => {
    sec.endSession(user, input.id);
    return null;
  });
  register(app, up, security.sessionEndOthers, ({ user, token }) => {
    sec.endOtherSessions(user, token!);
    return null;
  });
}
