"use client";

/** The sandbox's own card form (and its test cards): the checkout's payment without Stripe. */
import { type FormEvent, useState } from "react";
import { Button } from "@/components/button";
import { useForm } from "@/components/entity-form";
import { FormError, TextField } from "@/components/form";
import { DECLINE_MESSAGES, type DeclineCode, type Payment, TEST_CARDS } from "@/lib/billing/payments";
import { ApiClientError, api } from "@/lib/dashboard/api";
import { formatMoney } from "@/lib/dashboard/money";
import { type CheckoutView, cardPaymentBody } from "@/lib/schemas/payment";
import { formatCardNumber, formatExpiry } from "./card-format";

const FIELDS = ["cardholder_name", "number", "expiry", "cvc"] as const;

interface PaymentResult {
  transaction_id: string;
  transaction_status: string;
  payment: Payment;
}

function declineText(code: string | null): string {
  return DECLINE_MESSAGES[code as DeclineCode] ?? "The payment could not be taken. Try another card.";
}

export function TestCards() {
  return (
    <section
      aria-labelledby="test-cards-heading"
      className="rounded-lg border border-dashed border-slate-300 p-4 text-sm"
    >
      <h2 id="test-cards-heading" className="font-medium text-slate-800">
        Sandbox test cards
      </h2>
      <p className="mt-1 text-slate-600">Use any future expiry date, any 3-digit CVC and any name.</p>
      <table className="mt-2 w-full text-left">
        <tbody>
          {TEST_CARDS.map((card) => (
            <tr key={card.number}>
              <td className="py-1 pr-4 font-mono tabular-nums text-slate-900">{card.number}</td>
              <td className="py-1 text-slate-600">{card.label}</td>
            </tr>
          ))}
          <tr>
            <td className="py-1 pr-4 text-slate-900">Any other valid number</td>
            <td className="py-1 text-slate-600">Succeeds</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

export function CardForm({
  view,
  onPaid,
  onAlreadyPaid,
  onNotPayable,
}: {
  view: CheckoutView;
  onPaid: (payment: Payment) => void;
  onAlreadyPaid: () => void;
  onNotPayable: () => void;
}) {
  const state = useForm(() => ({ cardholder_name: "", number: "", expiry: "", cvc: "" }), { autoFocus: false });
  const { form, values, bind, errors, pending } = state;
  const number = bind("number");
  const expiry = bind("expiry");
  const [declined, setDeclined] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setDeclined(null);
    return state.run({
      fields: FIELDS,
      schema: cardPaymentBody,
      body: values,
      send: async (body) => {
        const result = (
          await api<{ data: PaymentResult }>(`/checkout/${encodeURIComponent(view.transaction_id)}/payments`, {
            method: "POST",
            body,
          })
        ).data;
        if (result.payment.status === "captured") onPaid(result.payment);
        else setDeclined(declineText(result.payment.error_code));
      },
      handle: (error) => {
        if (error instanceof ApiClientError && error.code === "transaction_already_paid") onAlreadyPaid();
        else if (error instanceof ApiClientError && error.code === "transaction_not_payable") onNotPayable();
        else return false;
        return true;
      },
    });
  }

  return (
    <form
      ref={form}
      aria-label="Card payment"
      noValidate
      onSubmit={submit}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 className="text-base font-semibold text-slate-900">Pay by card</h2>
      {declined && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">Payment declined</p>
          <p>{declined}</p>
        </div>
      )}
      <TextField
        label="Name on card"
        name="cardholder_name"
        autoComplete="cc-name"
        required
        {...bind("cardholder_name")}
      />
      <TextField
        label="Card number"
        name="number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        required
        maxLength={23}
        {...number}
        onChange={(e) => number.onChange({ target: { value: formatCardNumber(e.target.value) } })}
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label="Expiry (MM/YY)"
          name="expiry"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          inputMode="numeric"
          required
          maxLength={7}
          {...expiry}
          onChange={(e) => expiry.onChange({ target: { value: formatExpiry(e.target.value, expiry.value) } })}
        />
        <TextField
          label="CVC"
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          required
          {...bind("cvc")}
        />
      </div>
      {errors && <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />}
      <Button type="submit" className="w-full" pending={pending} pendingLabel="Processing payment…">
        Pay {formatMoney(view.totals.grand_total, view.currency_code)}
      </Button>
    </form>
  );
}
