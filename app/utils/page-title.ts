/**
 * A page's <title>; when its loader failed, the title of what is shown instead (page not found, real
 * account needed, …) in the user's language, so no screen is left without a title (WCAG 2.4.2).
 */
import type { MetaDescriptor } from '@remix-run/node';
import { isRouteErrorResponse } from '@remix-run/react';
import { isDemoBlocked } from '~/utils/demo-blocked';
import type { RootData } from '~/root';

const APP_NAME = 'LotFX';

export function pageTitle(
  { matches, error }: { matches: readonly { id: string; data: unknown }[]; error?: unknown },
  title?: string,
): MetaDescriptor[] {
  if (title) return [{ title }];
  const titles = (matches.find((m) => m.id === 'root')?.data as RootData | undefined)?.errorTitles;
  if (!error || !titles) return [{ title: APP_NAME }];
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const shown = isDemoBlocked(error)
    ? titles.demoBlocked
    : status === 404
      ? titles.notFound
      : status === 503
        ? titles.unavailable
        : titles.failed;
  return [{ title: `${shown} · ${APP_NAME}` }];
}

/** The title of a screen named by the root loader (in the user's language), for pages whose loaders have no words. */
export function namedPageTitle(
  args: { matches: readonly { id: string; data: unknown }[]; error?: unknown },
  name: keyof NonNullable<RootData>['pageTitles'],
): MetaDescriptor[] {
  const titles = (args.matches.find((m) => m.id === 'root')?.data as RootData | undefined)?.pageTitles;
  return pageTitle(args, titles?.[name]);
}
