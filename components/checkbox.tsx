"use client";

import { type ReactNode, useEffect, useRef } from "react";

/**
 * A labelled checkbox. `mixed`: it stands for several and only some are ticked (indeterminate).
 * `label` is its accessible name when what the eye sees (`children`) is not enough on its own.
 */
export function Checkbox({
  checked,
  mixed = false,
  onChange,
  label,
  describedBy,
  title,
  disabled = false,
  className = "",
  children,
}: {
  checked: boolean;
  mixed?: boolean;
  onChange: (checked: boolean) => void;
  label?: string;
  describedBy?: string;
  title?: string;
  /** Shown but not changeable (e.g. a permission the signed-in user cannot grant). */
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed && !checked;
  }, [mixed, checked]);
  return (
    <label
      className={`inline-flex items-center gap-2 ${disabled ? "cursor-not-allowed opacity-50" : "cursor-pointer"} ${className}`}
      title={title}
    >
      <input
        ref={ref}
        type="checkbox"
        className="h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-label={label}
        aria-describedby={describedBy}
      />
      <span aria-hidden={label ? true : undefined}>{children}</span>
    </label>
  );
}
