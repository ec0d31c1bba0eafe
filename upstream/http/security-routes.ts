/** Account security (issue 38, contract/calls/security.ts), each call bound to its handler in accounts/security.ts. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as passkeys from '../../contract/calls/passkeys';
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
  register(app, up, security.loginFactorSend, ({ input, ip, lang }) => sec.loginFactorSend(input.ticket, ip, lang));
  registerPasskeyRoutes(app, up);
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

function registerPasskeyRoutes(app: FastifyInstance, up: Upstream): void {
  const keys = up.passkeys;
  const origin = (req: FastifyRequest) => {
    const value = req.headers[passkeys.CLIENT_ORIGIN_HEADER];
    return typeof value === 'string' ? value : undefined;
  };
  register(app, up, passkeys.passkeyList, ({ user }) => keys.list(user.id));
  register(app, up, passkeys.passkeyRegisterOptions, ({ user, request }) => keys.registerOptions(user, origin(request)));
  register(app, up, passkeys.passkeyRegister, ({ input, user, token, request }) =>
    keys.register(user, token!, origin(request), input.name, input.answer),
  );
  register(app, up, passkeys.passkeyRename, ({ input, user }) => {
    keys.rename(user, input.id, input.name);
    return null;
  });
  registerProtected(app, up, passkeys.passkeyRemove, 'factor_off', ({ input, user }) => {
    keys.remove(user, input.id);
    return null;
  });
  register(app, up, passkeys.passkeyLoginOptions, ({ input, ip, request }) => keys.loginOptions(origin(request), input.ticket, ip));
  register(app, up, passkeys.passkeyLogin, async ({ input, device, lang, request }) => {
    const s = await keys.login(origin(request), input.answer, input.ticket, device, lang);
    return { token: s.token, user: userView(s.user) };
  });
  register(app, up, passkeys.passkeyStepUpOptions, ({ input, user, request }) => keys.stepUpOptions(user, input.action, origin(request)));
  register(app, up, passkeys.passkeyStepUp, ({ input, user, token, request }) =>
    keys.stepUp(user, token!, input.action, input.answer, origin(request)),
  );
}
