/**
 * Whether an element is on screen or close to it, from one IntersectionObserver shared by every caller (a
 * list of rows would otherwise make one per row). Until the observer has answered, and where there is none,
 * the element counts as on screen: nothing is held back on a guess.
 */
import { useEffect, useState, type RefObject } from 'react';

type Report = (near: boolean) => void;
const reports = new WeakMap<Element, Report>();
let observer: IntersectionObserver | null = null;

function shared(): IntersectionObserver | null {
  if (observer || typeof IntersectionObserver === 'undefined') return observer;
  observer = new IntersectionObserver(
    (entries) => entries.forEach((e) => reports.get(e.target)?.(e.isIntersecting)),
    // A few rows of margin: a row is live again just before a scroll brings it into view.
    { rootMargin: '200px 0px' },
  );
  return observer;
}

export function useNearScreen(ref: RefObject<Element>): boolean {
  const [near, setNear] = useState(true);
  useEffect(() => {
    const element = ref.current;
    const io = shared();
    if (!element || !io) return;
    reports.set(element, setNear);
    io.observe(element);
    return () => {
      io.unobserve(element);
      reports.delete(element);
    };
  }, [ref]);
  return near;
}
