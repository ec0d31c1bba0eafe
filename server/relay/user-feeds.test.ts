/** The users' private sockets against a fake upstream (./test-support.ts), with streams played by names. */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { EventIds } from './replay';
import { sleep, startFakeUpstream, until, type FakeConnection, type FakeUpstream } from './test-support';
import { UserFeeds, type UserFeedOptions } from './user-feeds';

const FAST_SOCKET = { pingIntervalMs: 40, missedPingsBeforeReconnect: 3, connectTimeoutMs: 300, backoff: { initialMs: 20, maxMs: 80 } };

let fake: FakeUpstream;
let feeds: UserFeeds<string>;
/** What each stream was written: [stream, event, data]. */
let written: [string, string, string][];
/** The streams the feeds ended (their token was revoked). */
let ended: string[];
let ids: EventIds;

beforeEach(async () => {
  fake = await startFakeUpstream();
  written = [];
  ended = [];
  ids = new EventIds();
});
afterEach(async () => {
  feeds.close();
  await fake.close();
});

function start(options: Partial<UserFeedOptions<string>> = {}) {
  feeds = new UserFeeds<string>({
    upstreamUrl: fake.url,
    socket: FAST_SOCKET,
    lingerMs: 0,
    replayCapacity: 8,
    ids,
    log: () => {},
    write: (clients, frames) => {
      const [, event, data] = /event: (\w+)\ndata: (.*)\n/.exec(frames.text)!;
      for (const c of clients) written.push([c, event!, data!]);
    },
    end: (clients) => ended.push(...clients),
    ...options,
  });
  return feeds;
}

/** The seq of the status event a stream gets on connect (the hub's first write after attaching). */
function connectedAt(): number {
  ids.frame('status', '{"state":"up"}');
  return ids.seq;
}

/** The user's nth private connection at the fake, once it has logged in and subscribed. */
async function subscribed(nth = 0): Promise<FakeConnection> {
  await until(() => (fake.connections[nth]?.messages.length ?? 0) >= 2, 3000, `connection ${nth} subscribed`);
  return fake.connections[nth]!;
}

test("a user's tabs share one socket; its pushes reach each of them at once and are kept for a reconnecting tab", async () => {
  start();
  const feed = feeds.attach({ userId: 7, token: 't7' });
  feed.clients.add('tab1');
  expect(feeds.attach({ userId: 7, token: 't7' })).toBe(feed);
  feed.clients.add('tab2');
  const other = feeds.attach({ userId: 8, token: 't8' });
  other.clients.add('stranger');
  await Promise.all([subscribed(0), subscribed(1)]);
  const conn = fake.connections.find((c) => c.messages[0]!.params === 't7')!;
  expect(conn.messages).toEqual([
    { type: 'login', params: 't7' },
    { type: 'sub', params: ['FOREX_TRADE', 'FOREX_CLOSED', 'ALERT'] },
  ]);
  const seen = connectedAt();
  conn.send({ type: 'FOREX_CLOSED', id: [41] });
  await until(() => written.length === 2);
  expect(written).toEqual([
    ['tab1', 'closed', '{"ids":[41]}'],
    ['tab2', 'closed', '{"ids":[41]}'],
  ]);
  expect(feed.replay.after(seen)?.text).toMatch(/event: closed\ndata: \{"ids":\[41\]\}/);
  expect(feeds.counts()).toEqual({ users: 2, privateSockets: 2 });
});

test("a refused login tells the token's tabs to revalidate, ends them and stops that socket; a new token opens another", async () => {
  start();
  const feed = feeds.attach({ userId: 11, token: 'bad' });
  feeds.join(feed, 'tab', 'bad');
  await until(() => written.length === 1);
  expect(written).toEqual([['tab', 'resync', '{"reason":"login-failed"}']]);
  expect(ended).toEqual(['tab']);
  expect(feeds.counts()).toEqual({ users: 0, privateSockets: 0 });
  // Remembered: the hub gives the token's reconnecting streams a visitor's stream instead of trying it again.
  expect(feeds.isRefused('bad')).toBe(true);
  expect(feeds.isRefused('good')).toBe(false);
  feeds.attach({ userId: 11, token: 'good' });
  await subscribed(1);
  expect(fake.connections[1]!.messages[0]).toEqual({ type: 'login', params: 'good' });
});

/** The connection that logged in with this token. */
const loggedInWith = (token: string) => fake.connections.find((c) => c.messages[0]?.type === 'login' && c.messages[0].params === token);

test("a user on two devices: the other device's token is watched, and when it is revoked only its streams end", async () => {
  start();
  const feed = feeds.attach({ userId: 31, token: 'phone' });
  feeds.join(feed, 'phone-tab', 'phone');
  await subscribed(0);
  expect(feeds.attach({ userId: 31, token: 'laptop' })).toBe(feed);
  feeds.join(feed, 'laptop-tab', 'laptop');
  // The private socket keeps the phone's token; the laptop's gets a login-only socket.
  await until(() => loggedInWith('laptop') !== undefined, 3000, 'the watch');
  const watch = loggedInWith('laptop')!;
  await sleep(100);
  expect(watch.messages).toEqual([{ type: 'login', params: 'laptop' }]);
  expect(fake.connections[0]!.messages).toHaveLength(2);
  expect(feeds.counts()).toEqual({ users: 1, privateSockets: 2 });

  // The upstream revoked the laptop's token ("Sign out" from the phone).
  watch.send({ type: 'login_result', code: 999 });
  await until(() => ended.length === 1);
  expect(ended).toEqual(['laptop-tab']);
  expect(written).toEqual([['laptop-tab', 'resync', '{"reason":"login-failed"}']]);
  expect([...feed.clients]).toEqual(['phone-tab']);
  expect(feeds.isRefused('laptop')).toBe(true);
  await until(() => watch.socket.readyState === watch.socket.CLOSED);
  expect(feeds.counts()).toEqual({ users: 1, privateSockets: 1 });
  // The phone's pushes still reach it.
  fake.connections[0]!.send({ type: 'FOREX_CLOSED', id: [5] });
  await until(() => written.length === 2);
  expect(written[1]).toEqual(['phone-tab', 'closed', '{"ids":[5]}']);
});

test("when the private socket's token is revoked, another device's token takes it over and that device's pages revalidate", async () => {
  start();
  const feed = feeds.attach({ userId: 41, token: 'phone' });
  feeds.join(feed, 'phone-tab', 'phone');
  const first = await subscribed(0);
  feeds.attach({ userId: 41, token: 'laptop' });
  feeds.join(feed, 'laptop-tab', 'laptop');
  await until(() => loggedInWith('laptop') !== undefined, 3000, 'the watch');
  const watch = loggedInWith('laptop')!;
  // The laptop signs the phone out.
  first.send({ type: 'login_result', code: 999 });
  await until(() => ended.length === 1);
  expect(ended).toEqual(['phone-tab']);
  // The laptop's token takes over the private socket: a new connection logs in with it and subscribes.
  await until(
    () => fake.connections.some((c) => c !== watch && c.messages[0]?.params === 'laptop' && c.messages.length >= 2),
    3000,
    'takeover',
  );
  const takeover = fake.connections.find((c) => c !== watch && c.messages[0]?.params === 'laptop')!;
  expect(takeover.messages).toEqual([
    { type: 'login', params: 'laptop' },
    { type: 'sub', params: ['FOREX_TRADE', 'FOREX_CLOSED', 'ALERT'] },
  ]);
  expect(written).toContainEqual(['laptop-tab', 'resync', '{"reason":"reconnected"}']);
  expect(feed.token).toBe('laptop');
  expect(feed.watches.size).toBe(0);
  await until(() => watch.socket.readyState === watch.socket.CLOSED);
});

test('a second token for the same user is watched while a stream holds it; the shared socket keeps its own', async () => {
  start();
  const feed = feeds.attach({ userId: 21, token: 'old' });
  feeds.join(feed, 'a', 'old');
  const conn = await subscribed();
  feeds.join(feeds.attach({ userId: 21, token: 'new' }), 'b', 'new');
  expect(feed.watches.size).toBe(1);
  await until(() => fake.connections.length === 2 && fake.connections[1]!.messages.length === 1);
  expect(fake.connections[1]!.messages).toEqual([{ type: 'login', params: 'new' }]);
  expect(conn.messages).toHaveLength(2);
  feeds.leave(feed, 'b');
  expect(feed.watches.size).toBe(0);
  expect(feeds.counts()).toEqual({ users: 1, privateSockets: 1 });
});

test('after the last tab the socket lingers; a tab back in time keeps it, and pushes meanwhile are kept for it', async () => {
  start({ lingerMs: 300 });
  const feed = feeds.attach({ userId: 5, token: 't5' });
  feed.clients.add('tab');
  const conn = await subscribed();
  const seen = connectedAt();
  feeds.leave(feed, 'tab');
  expect(feeds.counts()).toEqual({ users: 0, privateSockets: 1 });
  conn.send({ type: 'FOREX_CLOSED', id: [1] });
  await until(() => /"ids":\[1\]/.test(feed.replay.after(seen)?.text ?? ''));
  expect(feeds.attach({ userId: 5, token: 't5' })).toBe(feed);
  feed.clients.add('back');
  await new Promise((r) => setTimeout(r, 400));
  expect(feeds.counts()).toEqual({ users: 1, privateSockets: 1 });
  feeds.leave(feed, 'back');
  await until(() => feeds.counts().privateSockets === 0, 2000, 'the socket closed after its linger');
  expect(feeds.get(5)).toBeUndefined();
  await until(() => conn.socket.readyState === conn.socket.CLOSED);
});

test('a socket that comes back after an outage: the tabs revalidate, and nothing from before can be replayed', async () => {
  start();
  const feed = feeds.attach({ userId: 9, token: 't9' });
  feed.clients.add('tab');
  const first = await subscribed();
  first.send({ type: 'FOREX_CLOSED', id: [1] });
  await until(() => written.length === 1);
  const beforeOutage = ids.seq - 1;
  first.socket.terminate();
  await subscribed(1);
  await until(() => written.length === 2);
  expect(written[1]).toEqual(['tab', 'resync', '{"reason":"reconnected"}']);
  expect(feed.replay.after(beforeOutage)).toBeNull();
});

test("logout tells the upstream, closes the socket and hands back the user's tabs", async () => {
  start({ lingerMs: 10_000 });
  const feed = feeds.attach({ userId: 3, token: 't3' });
  feed.clients.add('a');
  feed.clients.add('b');
  const conn = await subscribed();
  expect(feeds.logout(3)).toEqual(['a', 'b']);
  await until(() => conn.messages.at(-1)?.type === 'logout');
  expect(feeds.counts()).toEqual({ users: 0, privateSockets: 0 });
  expect(feeds.logout(3)).toEqual([]);
});
