import { useSyncExternalStore } from 'react';
import './kit'; // one chunk with the small controls (kit.ts)

const subscribe = () => () => {};

/**
 * False while the server renders and during hydration, true from then on (remix-utils' hook, here
 * so that it shares the controls' chunk instead of being a file of its own).
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
