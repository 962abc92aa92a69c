"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { useToast } from "@/components/toast";
import { useEmailPortalLink } from "@/lib/dashboard/emails";
import { Allowed } from "@/lib/dashboard/permissions";

/**
 * "Email portal link": after a confirmation naming the recipient, emails the customer a link to
 * their billing portal (24 hours; POST /customers/{id}/portal-link-email, which needs
 * customer_portal_session.write). The email is queued: the toast says so and links to the Emails
 * log, where it shows as sent (or logged, without SMTP).
 */
export function EmailPortalLinkButton({ customerId, email }: { customerId: string; email: string | null }) {
  const send = useEmailPortalLink(customerId);
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const noEmail = !email;

  async function confirm() {
    try {
      const queued = await send.mutateAsync();
      setConfirming(false);
      toast.show(`Portal link emailed to ${queued.to}.`, "success");
    } catch (e) {
      setError(`The portal link was not sent: ${(e as Error).message}`);
    }
  }

  return (
    <>
      <Allowed permission="customer_portal_session.write" action="email portal links">
        <Button
          variant="secondary"
          size="sm"
          pending={send.isPending}
          pendingLabel="Sending…"
          disabled={noEmail}
          title={noEmail ? "The customer has no email address." : undefined}
          onClick={() => {
            setError(null);
            send.reset();
            setConfirming(true);
          }}
        >
          Email portal link
        </Button>
      </Allowed>
      <ConfirmDialog
        open={confirming}
        tone="primary"
        title="Email a portal link?"
        description={
          <>
            <strong>{email}</strong> gets a link to their billing portal, where they see their invoices and payments and
            manage their subscriptions. The link works for 24 hours. Sent emails are listed on the{" "}
            <Link href="/emails" className="text-brand-700 underline">
              Emails
            </Link>{" "}
            page.
          </>
        }
        confirmLabel="Send email"
        pending={send.isPending}
        error={error}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
