"use client";

import { type ReactNode, useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";
import type { FormErrorState } from "@/lib/dashboard/form";
import { Button } from "./button";
import { FormError } from "./form";

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** `danger` for destructive actions (the default). */
  tone?: "danger" | "primary";
  /** While the action runs: the buttons are disabled and Escape does nothing. */
  pending?: boolean;
  /** What went wrong when the action was refused; the dialog stays open. */
  error?: ReactNode;
  /** The same from a form of the kit (`useForm`): its message, shown as every form shows it. */
  formErrors?: FormErrorState | null;
  onConfirm: () => void;
  onCancel: () => void;
  /** Choices that shape the action (a form's controls), between the description and the error. */
  children?: ReactNode;
  /** The confirm button is disabled (the choices are incomplete, a preview is loading). */
  confirmDisabled?: boolean;
  /** A wider panel, for dialogs with choices and previews. */
  wide?: boolean;
}

/**
 * A modal confirmation before an action: role="dialog" with aria-modal, focus starts on Cancel
 * (the safe choice), Tab cycles within the dialog, Escape and the backdrop cancel, and focus
 * returns to where it was when the dialog closes.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  tone = "danger",
  pending = false,
  error,
  formErrors,
  onConfirm,
  onCancel,
  children,
  confirmDisabled = false,
  wide = false,
}: ConfirmDialogProps) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const latest = useRef({ onCancel, pending });
  useEffect(() => {
    latest.current = { onCancel, pending };
  });

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelButton.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        if (!latest.current.pending) latest.current.onCancel();
        return;
      }
      if (event.key !== "Tab" || !panel.current) return;
      const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = items[0];
      const last = items.at(-1);
      if (!first || !last) return;
      const inside = panel.current.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus that escapes (a click outside, a screen reader's virtual cursor) is brought back.
    const onFocusIn = (event: FocusEvent) => {
      if (panel.current && event.target instanceof Node && !panel.current.contains(event.target)) {
        cancelButton.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-slate-900/50 dark:bg-black/60"
        onClick={() => {
          if (!pending) onCancel();
        }}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        className={`relative max-h-full w-full overflow-y-auto ${wide ? "max-w-2xl" : "max-w-md"} rounded-lg bg-white p-6 shadow-xl`}
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description && (
          <div id={`${id}-description`} className="mt-2 text-sm text-slate-600">
            {description}
          </div>
        )}
        {children && <div className="mt-4 space-y-4">{children}</div>}
        {error && (
          <div role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </div>
        )}
        {formErrors && (
          <div className="mt-3">
            <FormError message={formErrors.message} other={formErrors.other} requestId={formErrors.requestId} />
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button ref={cancelButton} variant="secondary" onClick={onCancel} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button
            variant={tone === "danger" ? "danger" : "primary"}
            onClick={onConfirm}
            disabled={confirmDisabled}
            pending={pending}
            pendingLabel="Working…"
          >
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
