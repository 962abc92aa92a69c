"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { BodyBlock, DescriptionList } from "@/components/description-list";
import { DetailLoader, EntityIdCopy } from "@/components/entity-detail";
import { PageHeader, Section } from "@/components/page-header";
import { useToast } from "@/components/toast";
import { formatDateTime } from "@/lib/dashboard/display";
import { type Email, NOT_RESENT, TEMPLATE_LABELS, useEmail, useResendEmail } from "@/lib/dashboard/emails";
import { Allowed } from "@/lib/dashboard/permissions";
import { EmailStatus } from "../emails-view";

const BACK = { href: "/emails", label: "Emails" };
const dash = <span className="text-slate-500">—</span>;

export function EmailDetail({ emailId }: { emailId: string }) {
  const email = useEmail(emailId);
  return (
    <DetailLoader query={email} noun="email" back={BACK}>
      {(data) => <EmailPage email={data} />}
    </DetailLoader>
  );
}

/** Where the entity an email is about is shown in the dashboard. */
function entityLink(id: string | null) {
  if (!id) return dash;
  const areas: Record<string, string> = { txn: "transactions", sub: "subscriptions", ctm: "customers" };
  const [prefix = ""] = id.split("_");
  const area = areas[prefix];
  return area ? (
    <Link href={`/${area}/${id}`} className="font-mono text-xs text-brand-700 hover:underline">
      {id}
    </Link>
  ) : (
    <span className="font-mono text-xs">{id}</span>
  );
}

function EmailPage({ email }: { email: Email }) {
  return (
    <div>
      <PageHeader
        back={BACK}
        title={email.subject}
        badges={<EmailStatus status={email.status} />}
        description={<EntityIdCopy id={email.id} noun="email" />}
        actions={
          NOT_RESENT.has(email.template) || email.notification_setting_id ? null : <ResendButton email={email} />
        }
      />
      <div className="space-y-6">
        <Section title="Details">
          <DescriptionList
            items={[
              { term: "To", value: email.to },
              { term: "Kind", value: TEMPLATE_LABELS[email.template] },
              {
                term: "Event",
                value: email.event_type ? (
                  <span className="font-mono text-xs">{email.event_type}</span>
                ) : (
                  "Sent on request"
                ),
              },
              { term: "About", value: entityLink(email.entity_id) },
              { term: "Written", value: formatDateTime(email.created_at) },
              { term: "Sent", value: email.sent_at ? formatDateTime(email.sent_at) : dash },
              { term: "Attempts", value: String(email.attempts) },
              ...(email.error ? [{ term: "SMTP answer", value: email.error }] : []),
            ]}
          />
        </Section>
        <Section title="HTML">
          {/* No script, form or navigation: sandbox="" (the email is rendered as a mail client would). */}
          <iframe
            title={`HTML of the email "${email.subject}"`}
            sandbox=""
            srcDoc={email.html}
            className="h-[32rem] w-full rounded-md border border-slate-200 bg-white"
          />
        </Section>
        <Section title="Text">
          <BodyBlock body={email.text} tall />
        </Section>
      </div>
    </div>
  );
}

/**
 * "Resend": after a confirmation naming the address, sends the email again as a new email of the
 * log (POST /emails/{id}/resend, notification.write), written afresh so its links work again, and
 * opens it.
 */
function ResendButton({ email }: { email: Email }) {
  const resend = useResendEmail(email.id);
  const toast = useToast();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    try {
      const sent = await resend.mutateAsync();
      setConfirming(false);
      toast.show(`Email sent again to ${sent.to}.`, "success");
      router.push(`/emails/${sent.id}`);
    } catch (e) {
      setError(`The email was not sent again: ${(e as Error).message}`);
    }
  }

  return (
    <>
      <Allowed permission="notification.write" action="resend emails">
        <Button
          variant="secondary"
          size="sm"
          pending={resend.isPending}
          pendingLabel="Sending…"
          onClick={() => {
            setError(null);
            resend.reset();
            setConfirming(true);
          }}
        >
          Resend
        </Button>
      </Allowed>
      <ConfirmDialog
        open={confirming}
        tone="primary"
        title="Send this email again?"
        description={
          <>
            <strong>{email.to}</strong> gets “{email.subject}” again, written afresh so that its links work. It is
            listed as a new email; this one stays as it was.
          </>
        }
        confirmLabel="Resend email"
        pending={resend.isPending}
        error={error}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
