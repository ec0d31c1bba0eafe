/**
 * The patched route matching (patches/@remix-run+router…): a route tree's ranked branches and each pattern's
 * regular expression are made once. Matching must still answer as before: the best-ranked route, params
 * decoded, each tree on its own, and a tree changed by patchRoutes seen at once.
 */
import { createMemoryHistory, createRouter, createStaticHandler, matchRoutes, type AgnosticDataRouteObject } from '@remix-run/router';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const tree = (prefix: string): AgnosticDataRouteObject[] => [
  {
    id: `${prefix}root`,
    path: '/',
    children: [
      { id: `${prefix}index`, index: true },
      { id: `${prefix}trade`, path: 'trade' },
      { id: `${prefix}news`, path: 'news/:id' },
      { id: `${prefix}splat`, path: '*' },
    ],
  },
];
const ids = (routes: AgnosticDataRouteObject[], path: string) => matchRoutes(routes, path)?.map((m) => m.route.id);

describe('route matching with the cached branches', () => {
  it('is the patched router that the server loads', () => {
    // The copy Remix's server runtime resolves (a nested copy would escape the patch).
    const runtime = createRequire(createRequire(import.meta.url).resolve('@remix-run/server-runtime'));
    const source = runtime.resolve('@remix-run/router');
    expect(source).toMatch(/router\.cjs\.js$/);
    expect(readFileSync(source, 'utf8')).toContain('function rankedBranches(routes)');
  });

  it('answers the same on every call, with params, ranked before the splat', () => {
    const routes = tree('a-');
    for (let i = 0; i < 3; i++) {
      expect(ids(routes, '/trade')).toEqual(['a-root', 'a-trade']);
      expect(ids(routes, '/TRADE/')).toEqual(['a-root', 'a-trade']);
      expect(ids(routes, '/')).toEqual(['a-root', 'a-index']);
      expect(ids(routes, '/elsewhere/deep')).toEqual(['a-root', 'a-splat']);
      expect(matchRoutes(routes, '/news/a%20b')?.[1]?.params).toEqual({ id: 'a b' });
    }
  });

  it('keeps each tree apart', () => {
    const other: AgnosticDataRouteObject[] = [{ id: 'b-only', path: '/trade' }];
    expect(ids(tree('a-'), '/trade')).toEqual(['a-root', 'a-trade']);
    expect(ids(other, '/trade')).toEqual(['b-only']);
    expect(ids(other, '/news/1')).toBeUndefined();
  });

  it('sees routes added by patchRoutes (lazy route discovery) at once, also in the tree it changed in place', async () => {
    const routes = tree('c-');
    const router = createRouter({ routes, history: createMemoryHistory({ initialEntries: ['/'] }) }).initialize();
    const before = router.routes;
    expect(ids(before, '/rank')).toEqual(['c-root', 'c-splat']);
    router.patchRoutes('c-root', [{ id: 'c-rank', path: 'rank' }]);
    expect(ids(router.routes, '/rank')).toEqual(['c-root', 'c-rank']);
    // The old tree's root got the new child in place (what route discovery matches during a navigation).
    expect(ids(before, '/rank')).toEqual(['c-root', 'c-rank']);
    router.dispose();
  });

  it('serves a static handler query as before', async () => {
    const handler = createStaticHandler([
      { id: 'r', path: '/', children: [{ id: 'q', path: 'q/:n', loader: ({ params }) => Number(params.n) * 2 }] },
    ]);
    for (const n of [1, 2]) {
      const context = await handler.query(new Request(`http://localhost/q/${n}`));
      if (context instanceof Response) throw new Error('unexpected response');
      expect(context.loaderData.q).toBe(n * 2);
    }
  });
});
