/** Price alerts (issue 13): list, add and delete, each bound to its contract call. */
import type { FastifyInstance } from 'fastify';
import * as alerts from '../../contract/calls/alerts';
import type { Upstream } from '../upstream';
import { register } from './route';
import { alertView } from './views';

export function registerAlertRoutes(app: FastifyInstance, up: Upstream): void {
  const book = up.engine.alerts;
  register(app, up, alerts.alertList, ({ user }) => book.list(user.id).map((row) => alertView(up.market, row)));
  register(app, up, alerts.alertAdd, ({ input, user, lang }) =>
    alertView(
      up.market,
      book.add(user.id, { instrumentId: input.forex_id, direction: input.direction, price: input.price, note: input.note, lang }),
    ),
  );
  register(app, up, alerts.alertDel, ({ input, user }) => {
    book.remove(user.id, input.id);
    return null;
  });
}
