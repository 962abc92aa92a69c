import { useCallback, useRef } from "react";

/**
 * For a button that opens an inline panel: `restore()` puts focus back on it once the panel has
 * closed (and the button is enabled again), so keyboard users do not land at the top of the page.
 */
export function useFocusReturn<T extends HTMLElement = HTMLButtonElement>() {
  const ref = useRef<T>(null);
  const restore = useCallback(() => {
    requestAnimationFrame(() => ref.current?.focus());
  }, []);
  return [ref, restore] as const;
}
