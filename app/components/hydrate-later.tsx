/**
 * Parts the server draws whose code is not in a page's first-load script (issue 12): they work as drawn
 * until their code comes (a closed <details> drawer, a toast). The server's markup is kept as an island: the
 * browser renders the same wrapper with an empty `dangerouslySetInnerHTML`, which hydration leaves as the
 * server wrote it and later renders never touch, and swaps in the component once its code has loaded (after
 * hydration) and nobody is using the island: no <details> in it open, no focus in it, no press on it (the swap
 * draws it anew, closed). Not a lazy component in a Suspense boundary: React draws such a boundary again, empty, when
 * anything above it changes before its code comes (error 421; Remix updates its router state soon after
 * hydration). A chunk that fails to load leaves the server's markup in place.
 */
import { createElement, useEffect, useRef, useState, type ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { whenIdle } from '~/utils/when-idle';

/**
 * Loads a component's code once, when the browser is first idle after hydration (asking for five chunks from
 * hydration's own effects made its last task a long one on a weak phone), or at once when nothing is drawn
 * meanwhile (`now`); null until it is there (and for good if it fails).
 */
export function useLoadedComponent<P>(
  load: () => Promise<ComponentType<P>>,
  cache: { component?: ComponentType<P> },
  wanted = true,
  now = false,
) {
  const [component, setComponent] = useState<ComponentType<P> | undefined>(() => cache.component);
  useEffect(() => {
    if (component || !wanted) return;
    const fetch = () =>
      // (A component gone meanwhile ignores the answer: React 18 drops a state update after unmount.)
      load().then(
        (loaded) => setComponent(() => (cache.component = loaded)),
        // Offline or a deploy in between: the server's markup (or nothing) stays; the next page tries again.
        () => undefined,
      );
    if (!now) return whenIdle(fetch);
    void fetch();
  }, [component, wanted, now, load, cache]);
  return component ?? null;
}

/** Set by the first effects after hydration (the root's islands are in every page). */
let pageHydrated = false;

const inUse = (island: HTMLElement) => island.querySelector('details[open]') || island.contains(document.activeElement);

/** Pass the server's component as `import.meta.env.SSR ? Component : null`, so the browser's build drops that import. */
export function hydrateLater<P extends object>(
  server: ComponentType<P> | null,
  load: () => Promise<ComponentType<P>>,
  /**
   * For a form that may be typed into before its code comes (components/carry-fields): swapped while in use too,
   * unless `carry` says not now (null), with what was typed carried over by what it returns, called after the swap.
   */
  { carry }: { carry?: (island: HTMLElement) => (() => void) | null } = {},
): ComponentType<P> & { preload: () => Promise<unknown> } {
  const cache: { component?: ComponentType<P> } = {};
  function HydrateLater(props: P) {
    // First drawn after hydration (a toast after a form's answer, a page reached by a link): there is no server
    // markup to keep, so until its code comes the part is missing, and the code is asked for at once.
    const [drawnByBrowser] = useState(() => pageHydrated);
    useEffect(() => void (pageHydrated = true), []);
    const loaded = useLoadedComponent(load, cache, !import.meta.env.SSR, drawnByBrowser);
    const island = useRef<HTMLDivElement>(null);
    // Drawn by the browser from the start, or swapped in once the island is idle.
    const [swapped, setSwapped] = useState(() => !!cache.component);
    // A finger or the main button held down on the island is using it too (Safari does not focus what is
    // pressed): noted from hydration on, since the press may begin before the code comes. By pointer, so a
    // second finger's release does not end the first one's press; other buttons (a context menu, whose release
    // may never reach the page) are no tap.
    const pressed = useRef(new Set<number>());
    useEffect(() => {
      const element = island.current;
      if (swapped || !element) return;
      // Looked at and drawn in one task: a tap pressed on the server's markup between the two would be released
      // on the new markup, and the browser then sends no click at all.
      const swapWhenIdle = () => {
        if (!loaded || pressed.current.size > 0) return;
        const putBack = carry ? carry(element) : !inUse(element) && (() => {});
        if (!putBack) return;
        flushSync(() => setSwapped(true));
        putBack();
      };
      // Focus leaving may be moving to another element of the island: look once it has landed. A release: once
      // its click is surely done (iOS sends a tap's click in a task of its own, after the touch ends). (The
      // first look is a task of its own too: flushSync cannot draw from inside an effect.)
      const afterFocus = () => setTimeout(swapWhenIdle);
      const press = (event: PointerEvent) => {
        if (event.button !== 0) return;
        // A primary pointer going down means no earlier touch is still on the screen, even one whose release
        // never reached the page.
        if (event.isPrimary) pressed.current.clear();
        pressed.current.add(event.pointerId);
      };
      const release = (event: PointerEvent) => {
        if (pressed.current.delete(event.pointerId)) setTimeout(swapWhenIdle, 500);
      };
      // A page hidden mid-press may never hear the release.
      const hidden = () => {
        if (document.visibilityState === 'hidden' && pressed.current.size > 0) {
          pressed.current.clear();
          setTimeout(swapWhenIdle);
        }
      };
      afterFocus();
      element.addEventListener('toggle', swapWhenIdle, true);
      element.addEventListener('focusout', afterFocus);
      element.addEventListener('pointerdown', press);
      // Capture: a release whose propagation is stopped (a dragged chart line) is a release all the same.
      addEventListener('pointerup', release, true);
      addEventListener('pointercancel', release, true);
      document.addEventListener('visibilitychange', hidden);
      return () => {
        document.removeEventListener('visibilitychange', hidden);
        element.removeEventListener('toggle', swapWhenIdle, true);
        element.removeEventListener('focusout', afterFocus);
        element.removeEventListener('pointerdown', press);
        removeEventListener('pointerup', release, true);
        removeEventListener('pointercancel', release, true);
      };
    }, [loaded, swapped]);
    const component = import.meta.env.SSR ? server : swapped || drawnByBrowser ? loaded : null;
    return component ? (
      <div className="island">{createElement(component, props)}</div>
    ) : (
      <div ref={island} className="island" dangerouslySetInnerHTML={{ __html: '' }} suppressHydrationWarning />
    );
  }
  /** Loads the code ahead of a part the page does not draw until a tap (an order's details): drawn at once then. */
  HydrateLater.preload = () =>
    load().then(
      (loaded) => (cache.component ??= loaded),
      () => undefined,
    );
  return HydrateLater;
}
