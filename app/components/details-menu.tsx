import { useLocation } from '@remix-run/react';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A `<details>` menu that behaves like a menu once JavaScript runs: it closes when the page changes
 * (a link in it was followed), when a link in it is clicked (also one to the page already shown),
 * on Escape (focus goes back to its button) and on a click or tap outside it. Without JavaScript it
 * stays a plain `<details>`: every link in it loads a new page, which renders it closed.
 */
export function DetailsMenu({ className, name, children }: { className?: string; name: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const shownAt = useRef(location.key);

  // closed when the page changes; not when the scripts first run, which would close a menu opened
  // on a slow connection before they came
  useEffect(() => {
    if (shownAt.current === location.key) return;
    shownAt.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (focusSummary: boolean) => {
      if (!details.open) return;
      details.open = false;
      if (focusSummary) details.querySelector('summary')?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        event.preventDefault();
        close(true);
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !details.contains(event.target)) close(false);
    };
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('a[href]')) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    details.addEventListener('click', onClick);
    details.dataset.enhanced = ''; // it behaves as a menu from now on (the browser tests wait for it)
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      details.removeEventListener('click', onClick);
    };
  }, []);

  return (
    <details ref={ref} className={className} data-menu={name}>
      {children}
    </details>
  );
}
