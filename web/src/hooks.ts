import { useEffect, useState, type RefObject } from 'react';

/** Whether the browser says it is online, following its online/offline events. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** Whole seconds left until `at` (ms since the epoch), ticking while any are left; 0 once passed. */
export function useSecondsUntil(at: number | null): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (at === null || at <= Date.now()) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= at) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Resolves once the browser is online again. */
export function whenOnline(): Promise<void> {
  if (navigator.onLine) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/**
 * Whether the element has come near the viewport (within `margin`) since it mounted; it stays true.
 * Reads tied to what is on screen wait for it, so a long thread's reload does not ask for all of
 * its history at once.
 */
export function useSeen(element: RefObject<Element | null>, margin = '400px'): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const target = element.current;
    if (seen || !target) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    }, { rootMargin: margin });
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, margin, seen]);
  return seen;
}
