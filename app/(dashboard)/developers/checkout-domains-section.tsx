"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import type { Column } from "@/components/data-table";
import { FormShell, useForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { DateCell, PagedTable, PanelSection, PER_PAGE, usePanel } from "@/components/list-page";
import { Section } from "@/components/page-header";
import { useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { type BadgeTone, StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import {
  type CheckoutDomain,
  useCheckoutDomains,
  useCreateCheckoutDomain,
  useDeleteCheckoutDomain,
} from "@/lib/dashboard/checkout-domains";
import { NEWEST_FIRST } from "@/lib/dashboard/hooks";
import { Allowed } from "@/lib/dashboard/permissions";
import { createCheckoutDomainBody, DOMAIN_MAX } from "@/lib/schemas/checkout-domain";

const STATUS_TONE: Record<CheckoutDomain["status"], BadgeTone> = {
  approved: "green",
  pending_review: "amber",
  in_review: "amber",
  action_required: "amber",
  rejected: "red",
};

function AddCheckoutDomainForm({
  onAdded,
  onCancel,
}: {
  onAdded: (domain: CheckoutDomain) => void;
  onCancel: () => void;
}) {
  const create = useCreateCheckoutDomain();
  const state = useForm(() => ({ domain: "" }));
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    return state.run({
      fields: ["domain"],
      schema: createCheckoutDomainBody,
      body: { domain: state.values.domain },
      send: async (body) => onAdded(await create.mutateAsync(body)),
    });
  }
  return (
    <FormShell
      label="Add checkout domain"
      submitLabel="Add domain"
      pendingLabel="Adding…"
      state={state}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <TextField
        label="Domain"
        required
        maxLength={DOMAIN_MAX}
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        placeholder="shop.example.com"
        hint="The host name of the website, without https:// or a path. Add each subdomain (www.…) on its own."
        {...state.bind("domain")}
      />
    </FormShell>
  );
}

/**
 * The Developers page's checkout domains: the websites whose pages may use client-side tokens.
 * `canRead` / `canWrite`: the signed-in staff member's checkout_domain permissions.
 */
export function CheckoutDomainsSection({ canRead, canWrite }: { canRead: boolean; canWrite: boolean }) {
  // Not in the address: the page's API key list already keeps its page there.
  const pagination = useCursorPagination(false);
  const panel = usePanel();
  const [deleting, setDeleting] = useState<CheckoutDomain | null>(null);
  const list = useCheckoutDomains({ after: pagination.after, per_page: PER_PAGE, order_by: NEWEST_FIRST }, canRead);
  const remove = useDeleteCheckoutDomain();
  const toast = useToast();

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.show(`Checkout domain ${deleting.domain} deleted.`);
      setDeleting(null);
      pagination.reset();
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  const addButton = (focusReturn: boolean) => panel.newButton("Add checkout domain", focusReturn);

  const columns: Column<CheckoutDomain>[] = [
    {
      key: "domain",
      header: "Domain",
      cell: (d) => <span className="font-mono text-sm text-slate-900">{d.domain}</span>,
    },
    { key: "status", header: "Status", cell: (d) => <StatusBadge status={d.status} tone={STATUS_TONE[d.status]} /> },
    {
      key: "apple_pay",
      header: "Apple Pay",
      cell: (d) => (
        <StatusBadge
          status={d.payment_method_verification.apple_pay.status}
          tone={d.payment_method_verification.apple_pay.status === "verified" ? "green" : "slate"}
        />
      ),
    },
    {
      key: "created",
      header: "Added",
      className: "whitespace-nowrap",
      cell: (d) => <DateCell value={d.created_at} />,
    },
    ...(canWrite
      ? [
          {
            key: "actions",
            header: "",
            srHeader: "Actions",
            className: "text-right",
            cell: (d: CheckoutDomain) => (
              <Button
                variant="danger"
                size="sm"
                onClick={() => {
                  remove.reset();
                  setDeleting(d);
                }}
                aria-label={`Delete ${d.domain}`}
              >
                Delete
              </Button>
            ),
          } satisfies Column<CheckoutDomain>,
        ]
      : []),
  ];

  return (
    <div className="mt-8">
      {panel.editing && (
        <PanelSection id={panel.id} title="Add checkout domain">
          <AddCheckoutDomainForm
            onAdded={(domain) => {
              panel.close();
              toast.show(`Checkout domain ${domain.domain} added.`);
              pagination.reset();
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      <Section
        title="Checkout domains"
        id="checkout-domains"
        description={
          <>
            The websites whose pages may use your client-side tokens. While this list is empty, any website can; once it
            has a domain, only pages on the listed domains (and this dashboard&apos;s own address and localhost) can
            show prices and open checkouts with <code className="font-mono">billing.js</code>.
          </>
        }
        actions={
          canRead && (
            <Allowed permission="checkout_domain.write" action="add checkout domains">
              {addButton(true)}
            </Allowed>
          )
        }
      >
        {!canRead ? (
          <p className="text-sm text-slate-600">Your role cannot see checkout domains.</p>
        ) : (
          <PagedTable
            caption="Checkout domains"
            columns={columns}
            rowKey={(d) => d.id}
            list={list}
            pagination={pagination}
            empty={
              <EmptyState
                title="No checkout domains yet"
                description="Any website can use your client-side tokens. Add your website's domain to allow only it."
                action={
                  !panel.editing && (
                    <Allowed permission="checkout_domain.write" action="add checkout domains">
                      {addButton(false)}
                    </Allowed>
                  )
                }
              />
            }
          />
        )}
      </Section>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this checkout domain?"
        description={
          deleting && (
            <>
              Pages on <strong className="font-mono">{deleting.domain}</strong> stop being able to show prices and open
              checkouts at once (they get 403 forbidden), unless the list becomes empty, which lets every website use
              your tokens again.
            </>
          )
        }
        confirmLabel="Delete domain"
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
