/**
 * A component whose code is not in a page's first-load script (issue 12) though the server draws it: the
 * browser loads it while hydrating and keeps the server's markup until then (a Suspense boundary on both
 * sides). For parts that work without their script until it comes: a closed <details> drawer, a toast.
 * Pass the server's component as `import.meta.env.SSR ? Component : null`, so that the browser's build
 * drops that static import and keeps only the lazy one.
 */
import { lazy, memo, Suspense, type ComponentType } from 'react';

export function hydrateLater<P extends object>(server: ComponentType<P> | null, load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Browser = lazy(() => load().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  const Server = server;
  // Memo: a boundary still waiting for its code must not be re-rendered with the same props by its parent
  // (React would give up hydrating it and draw it again, empty meanwhile: error 421).
  return memo(function HydrateLater(props: P) {
    return <Suspense fallback={null}>{import.meta.env.SSR && Server ? <Server {...props} /> : <Browser {...props} />}</Suspense>;
  }) as unknown as ComponentType<P>;
}
