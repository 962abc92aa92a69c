"use client";

/**
 * What the subscription's action dialogs share: the page's props, their form on the kit (a done
 * action closes the dialog with a toast; a refused one keeps it open with the API's reason, beside
 * the fields it names, and everything entered), a group of radio buttons, and a few sentences.
 */
import { useId } from "react";
import { useForm } from "@/components/entity-form";
import { useToast } from "@/components/toast";
import type { Subscription } from "@/lib/dashboard/subscriptions";

/** What a dialog needs from the page. */
export interface DialogProps {
  sub: Subscription;
  onClose: () => void;
  /** The saved card renewals are charged to ("Visa •••• 4242"), when known. */
  card?: string | null;
}

/** A dialog's choices on the form kit, and `submit`, which runs the action. */
export function useActionForm<V extends object>(initial: () => V, onClose: () => void) {
  const state = useForm(initial, { autoFocus: false });
  const toast = useToast();
  function submit<B>({
    fields = [],
    body,
    send,
    done,
  }: {
    /** The dialog's fields that the API's `errors[].field` may name. */
    fields?: readonly string[];
    body: B | null;
    send: (body: B) => Promise<unknown>;
    /** The toast once done. */
    done: string;
  }) {
    return state.run<B>({
      fields,
      listPlaced: true,
      body,
      send: async (checked) => {
        await send(checked);
        toast.show(done);
        onClose();
      },
    });
  }
  /** What every action's ConfirmDialog takes from its form: pending, the API's errors, closing. */
  const dialog = { pending: state.pending, formErrors: state.errors, onCancel: onClose };
  return { ...state, submit, dialog };
}

/** Where a charge now goes: the saved card, or an invoice for manual collection. */
export function chargedTo(sub: Subscription, card: string | null | undefined): string {
  if (sub.collection_mode === "manual") return "invoiced to the customer";
  return card ? `charged to ${card}` : "charged to the saved payment method";
}

export const periodEnd = (sub: Subscription) =>
  sub.current_billing_period?.ends_at ?? sub.next_billed_at ?? sub.scheduled_change?.effective_at ?? null;

/** A whole number of at least 1 typed in a field, or null. */
export function quantityOf(text: string): number | null {
  return /^\d{1,9}$/.test(text) && Number(text) >= 1 ? Number(text) : null;
}

/** A group of radio buttons with a legend, each option with a hint. */
export function Choice<T extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: string;
  value: T;
  options: { value: T; label: string; hint?: string }[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 space-y-2">
        {options.map((option) => (
          <div key={option.value} className="flex items-start gap-2">
            <input
              type="radio"
              id={`${id}-${option.value}`}
              name={id}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              aria-describedby={option.hint ? `${id}-${option.value}-hint` : undefined}
              className="mt-0.5 h-4 w-4 accent-brand-600"
            />
            <div>
              <label htmlFor={`${id}-${option.value}`} className="text-sm font-medium text-slate-800">
                {option.label}
              </label>
              {option.hint && (
                <p id={`${id}-${option.value}-hint`} className="text-xs text-slate-500">
                  {option.hint}
                </p>
              )}
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
