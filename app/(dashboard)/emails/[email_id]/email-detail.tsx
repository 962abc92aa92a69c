"use client";

import Link from "next/link";
import { BodyBlock, DescriptionList } from "@/components/description-list";
import { DetailLoader, EntityIdCopy } from "@/components/entity-detail";
import { PageHeader, Section } from "@/components/page-header";
import { formatDateTime } from "@/lib/dashboard/display";
import { type Email, TEMPLATE_LABELS, useEmail } from "@/lib/dashboard/emails";
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
  const area = areas[id.split("_")[0]];
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
