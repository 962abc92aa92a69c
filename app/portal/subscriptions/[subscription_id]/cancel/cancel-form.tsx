"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ApiClientError } from "@/lib/dashboard/api";
import { portalApi } from "../../../portal-client";

/**
 * Cancel at the end of the billing period (the family's portal never cancels at once, and never
 * pauses), confirmed in a dialog first. A paused subscription has no running period: it ends now.
 */
export function CancelForm({
  subscriptionId,
  status,
  endsAt,
  endsAtText,
  scheduledAt,
}: {
  subscriptionId: string;
  status: string;
  endsAt: string | null;
  endsAtText: string;
  scheduledAt: string | null;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(scheduledAt);

  if (status === "canceled") {
    return <p className="mt-4 text-sm text-slate-700">This subscription is already canceled.</p>;
  }
  if (done) {
    return (
      <div role="status" className="mt-4 space-y-3 text-sm text-slate-700" data-testid="cancel-done">
        {done === "today" ? (
          <p>Your subscription is canceled. Nothing more will be charged.</p>
        ) : (
          <p>
            Done: your subscription ends on <strong>{done}</strong>. You keep access until then, and nothing more will
            be charged.
          </p>
        )}
        <Link href="/portal/overview" className="font-medium text-brand-700 hover:underline">
          Back to your subscriptions
        </Link>
      </div>
    );
  }
  const paused = status === "paused";
  const when = paused || !endsAt ? "now" : `at the end of the billing period, on ${endsAtText}`;

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      const result = await portalApi<{ scheduled_change: { effective_at: string } | null; status: string }>(
        `/subscriptions/${subscriptionId}/cancel`,
        { method: "POST", body: { confirm: true } },
      );
      setOpen(false);
      setDone(result.scheduled_change ? endsAtText : "today");
    } catch (e) {
      setError(e instanceof ApiClientError ? e.message : "Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="mt-4 space-y-4 text-sm text-slate-700">
      <p>
        If you cancel, your subscription ends {when}.{" "}
        {paused ? "" : "You keep using it until then, and you will not be charged again."}
      </p>
      <p>You can keep your subscription by leaving this page.</p>
      {error && !open && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" onClick={() => setOpen(true)}>
          Cancel subscription
        </Button>
        <Link
          href="/portal/overview"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
        >
          Keep subscription
        </Link>
      </div>
      <ConfirmDialog
        open={open}
        title="Cancel your subscription?"
        description={`Your subscription will end ${when}.`}
        confirmLabel="Yes, cancel"
        cancelLabel="No, keep it"
        pending={pending}
        error={error}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      />
    </div>
  );
}
