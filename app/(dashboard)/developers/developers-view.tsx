"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import type { Column } from "@/components/data-table";
import { ExportLink } from "@/components/export-link";
import { DateCell, PagedTable, PanelSection, PER_PAGE, useListFilters, usePanel } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { StatusFilter } from "@/components/status-filter";
import { useToast } from "@/components/toast";
import { type ApiKey, useApiKeys, useUpdateApiKey } from "@/lib/dashboard/api-keys";
import { pluralize } from "@/lib/dashboard/display";
import { Allowed } from "@/lib/dashboard/permissions";
import { CheckoutDomainsSection } from "./checkout-domains-section";
import { ClientTokensSection } from "./client-tokens-section";
import { CreateApiKeyForm } from "./create-api-key-form";
import { NewKeyPanel } from "./new-key-panel";

const STATUS_OPTIONS = [
  { value: "", label: "All" },
  { value: "active", label: "Active" },
  { value: "expired", label: "Expired" },
  { value: "revoked", label: "Revoked" },
] as const;

const never = <span className="text-slate-500">Never</span>;

function When({ value, fallback }: { value: string | null; fallback: React.ReactNode }) {
  return value ? <DateCell value={value} /> : fallback;
}

/** `grantable`: the permissions the signed-in staff member holds, the only ones a new key can get. */
export function DevelopersView({ grantable }: { grantable: readonly string[] }) {
  const { status, setStatus, orderBy, order, pagination } = useListFilters("");
  const panel = usePanel();
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // A viewer's role has neither: the section says so rather than showing buttons that would fail.
  const canRead = grantable.includes("api_key.read");
  const canWrite = grantable.includes("api_key.write");
  const listParams = { status, after: pagination.after, per_page: PER_PAGE, order_by: orderBy };
  const list = useApiKeys(listParams, canRead);
  const revoke = useUpdateApiKey();
  const toast = useToast();

  async function confirmRevoke() {
    if (!revoking) return;
    try {
      await revoke.mutateAsync({ id: revoking.id, input: { status: "revoked" } });
      toast.show(`API key “${revoking.name}” revoked.`);
      setRevoking(null);
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  const createButton = (focusReturn: boolean) => panel.newButton("Create API key", focusReturn, () => setCreated(null));

  const columns: Column<ApiKey>[] = [
    {
      key: "name",
      header: "Name",
      cell: (k) => (
        <div className="max-w-64">
          <p className="font-medium text-slate-900">{k.name}</p>
          {k.description && (
            <p className="truncate text-xs text-slate-500" title={k.description}>
              {k.description}
            </p>
          )}
        </div>
      ),
    },
    {
      key: "key",
      header: "Key",
      className: "whitespace-nowrap",
      cell: (k) => <code className="font-mono text-xs text-slate-700">{k.key}</code>,
    },
    {
      key: "permissions",
      header: "Permissions",
      className: "whitespace-nowrap",
      cell: (k) => <span title={k.permissions.join("\n")}>{pluralize(k.permissions.length, "permission")}</span>,
    },
    { key: "status", header: "Status", cell: (k) => <StatusBadge status={k.status} /> },
    {
      key: "last_used",
      header: "Last used",
      className: "whitespace-nowrap",
      cell: (k) => <When value={k.last_used_at} fallback={never} />,
    },
    {
      key: "expires",
      header: "Expires",
      className: "whitespace-nowrap",
      cell: (k) => <When value={k.expires_at} fallback={never} />,
    },
    {
      key: "created",
      header: "Created",
      className: "whitespace-nowrap",
      cell: (k) => <When value={k.created_at} fallback="—" />,
    },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (k) =>
        k.status === "revoked" || !canWrite ? null : (
          <Button
            variant="danger"
            size="sm"
            onClick={() => {
              revoke.reset();
              setRevoking(k);
            }}
            aria-label={`Revoke ${k.name}`}
          >
            Revoke
          </Button>
        ),
    },
  ];

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Developers"
        description={
          <>
            API keys authenticate your backend&apos;s requests to <code className="font-mono">/api</code>. Send one as{" "}
            <code className="font-mono">Authorization: Bearer &lt;API key&gt;</code>. Give each integration its own key
            with only the permissions it needs. Client-side tokens let your web pages show prices and open checkouts
            with <code className="font-mono">billing.js</code>, from the checkout domains you approve.
          </>
        }
      />

      {created && (
        <NewKeyPanel
          apiKey={created}
          onDone={() => {
            setCreated(null);
          }}
        />
      )}

      {panel.editing && (
        <PanelSection id={panel.id} title="Create API key">
          <CreateApiKeyForm
            grantable={grantable}
            onCreated={(key) => {
              panel.setEditing(null);
              setCreated(key);
              pagination.reset();
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      <Section
        title="API keys"
        description="Keys are stored as hashes: after creation only their last characters are shown."
        actions={
          <>
            {canRead && <StatusFilter value={status} options={STATUS_OPTIONS} onChange={setStatus} />}
            {canRead && <ExportLink list="api-keys" params={listParams} />}
            <Allowed permission="api_key.write" action="create API keys">
              {createButton(true)}
            </Allowed>
          </>
        }
      >
        {!canRead ? (
          <p className="text-sm text-slate-600">Your role cannot see API keys: an owner, admin or developer can.</p>
        ) : (
          <PagedTable
            caption="API keys"
            columns={columns}
            rowKey={(k) => k.id}
            list={list}
            pagination={pagination}
            order={order}
            empty={
              status ? (
                <EmptyState title={`No ${status} API keys`} />
              ) : (
                <EmptyState
                  title="No API keys yet"
                  description="Create a key to call the API from your backend."
                  action={
                    !panel.editing && (
                      <Allowed permission="api_key.write" action="create API keys">
                        {createButton(false)}
                      </Allowed>
                    )
                  }
                />
              )
            }
          />
        )}
      </Section>

      <ClientTokensSection canWrite={grantable.includes("client_token.write")} />

      <CheckoutDomainsSection
        canRead={grantable.includes("checkout_domain.read")}
        canWrite={grantable.includes("checkout_domain.write")}
      />

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this API key?"
        description={
          revoking && (
            <>
              <strong>{revoking.name}</strong> (<code className="font-mono text-xs">{revoking.key}</code>) stops working
              at once: requests using it get 401 invalid_token. This cannot be undone.
            </>
          )
        }
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        error={revoke.error?.message}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      />
    </div>
  );
}
