"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ApiClientError } from "@/lib/dashboard/api";
import { portalApi } from "../../../portal-client";

/** Makes (or finds) the transaction that updates the card, and goes to its hosted checkout. */
export function UpdateCardButton({ subscriptionId, pastDue }: { subscriptionId: string; pastDue: boolean }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function go() {
    setPending(true);
    setError(null);
    try {
      const { checkout_url } = await portalApi<{ checkout_url: string }>(
        `/subscriptions/${subscriptionId}/payment-method-checkout`,
        { method: "POST" },
      );
      window.location.assign(checkout_url);
    } catch (e) {
      setError(e instanceof ApiClientError ? e.message : "Something went wrong. Try again.");
      setPending(false);
    }
  }

  return (
    <div className="space-y-2">
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      <Button onClick={go} pending={pending} pendingLabel="Opening checkout…">
        {pastDue ? "Pay with a new card" : "Enter a new card"}
      </Button>
    </div>
  );
}
