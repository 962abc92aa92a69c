"use client";

import { useEffect, useRef, useState } from "react";
import { Button, type ButtonSize, type ButtonVariant } from "./button";

/**
 * Copies text. The Clipboard API needs a secure context (https or localhost); a self-hosted
 * dashboard on plain http falls back to a hidden textarea and execCommand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the fallback
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export function CopyButton({
  value,
  label = "Copy",
  variant = "secondary",
  size = "sm",
  className,
}: {
  value: string;
  /** The button's accessible name, e.g. "Copy API key". */
  label?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onClick() {
    const ok = await copyText(value);
    setState(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 2500);
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button variant={variant} size={size} onClick={onClick} className={className} aria-label={label}>
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-3.5 w-3.5">
          <path d="M7 3.5A1.5 1.5 0 0 1 8.5 2h6A1.5 1.5 0 0 1 16 3.5v9a1.5 1.5 0 0 1-1.5 1.5h-6A1.5 1.5 0 0 1 7 12.5v-9Z" />
          <path d="M4 7.5A1.5 1.5 0 0 1 5.5 6H6v6.5A2.5 2.5 0 0 0 8.5 15H13v.5a1.5 1.5 0 0 1-1.5 1.5h-6A1.5 1.5 0 0 1 4 15.5v-8Z" />
        </svg>
        <span aria-hidden="true">{state === "copied" ? "Copied" : "Copy"}</span>
      </Button>
      <span role="status" className={state === "failed" ? "text-xs text-red-700" : "sr-only"}>
        {state === "copied"
          ? "Copied to clipboard"
          : state === "failed"
            ? "Could not copy: select the text and copy it."
            : ""}
      </span>
    </span>
  );
}

/** A labelled read-only value (selected on focus) with its Copy button: a key or token shown once. */
export function CopyField({
  id,
  label,
  value,
  copyLabel,
}: {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
}) {
  return (
    <>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          spellCheck={false}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900"
        />
        <CopyButton value={value} label={copyLabel} variant="primary" size="md" />
      </div>
    </>
  );
}
