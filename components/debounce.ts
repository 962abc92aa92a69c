"use client";

import { useEffect, useState } from "react";

/** `value` once it has stayed the same for `delay` ms: a preview is asked for when typing pauses. */
export function useDebounced<T>(value: T, delay = 400): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return current;
}
