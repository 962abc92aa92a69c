"use client";

import { useEffect, useId, useRef, useState } from "react";

/**
 * A search box that reports what was typed once typing pauses (`delay` ms), so each keystroke
 * does not become a request. Enter reports at once.
 */
export function SearchInput({
  label,
  onSearch,
  placeholder,
  initialValue = "",
  delay = 300,
  maxLength = 100,
}: {
  label: string;
  onSearch: (term: string) => void;
  placeholder?: string;
  initialValue?: string;
  delay?: number;
  maxLength?: number;
}) {
  const id = useId();
  const [value, setValue] = useState(initialValue);
  const reported = useRef(initialValue.trim());
  const callback = useRef(onSearch);
  useEffect(() => {
    callback.current = onSearch;
  });

  useEffect(() => {
    const term = value.trim();
    if (term === reported.current) return;
    const timer = setTimeout(() => {
      reported.current = term;
      callback.current(term);
    }, delay);
    return () => clearTimeout(timer);
  }, [value, delay]);

  return (
    <div className="relative w-full max-w-xs">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className="pointer-events-none absolute top-1/2 left-2.5 h-4 w-4 -translate-y-1/2 text-slate-500"
      >
        <path
          fillRule="evenodd"
          d="M9 3.5a5.5 5.5 0 1 0 3.4 9.83l3.63 3.64a.75.75 0 1 0 1.06-1.06l-3.63-3.64A5.5 5.5 0 0 0 9 3.5ZM5 9a4 4 0 1 1 8 0 4 4 0 0 1-8 0Z"
          clipRule="evenodd"
        />
      </svg>
      <input
        id={id}
        type="search"
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            const term = value.trim();
            reported.current = term;
            callback.current(term);
          }
        }}
        className="block w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-8 text-sm placeholder:text-slate-500 focus:border-brand-500"
      />
    </div>
  );
}
