"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CopyButton, CopyField } from "@/components/copy-button";
import type { Column } from "@/components/data-table";
import { DateCell, PagedTable, PanelSection, PER_PAGE, useListFilters, usePanel } from "@/components/list-page";
import { Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { type ClientToken, useClientTokens, useUpdateClientToken } from "@/lib/dashboard/client-tokens";
import { NEWEST_FIRST } from "@/lib/dashboard/hooks";
import { Allowed } from "@/lib/dashboard/permissions";
import { CreateClientTokenForm } from "./create-client-token-form";

/** How a web page loads the library with `token`. */
function snippet(token: string): string {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return `<script src="${origin}/js/billing.js"></script>\n<script>\n  const billing = Billing.init({ token: "${token}" });\n</script>`;
}

/** A token just created: where to put it. Tokens are public, so it stays in the table too. */
function NewTokenPanel({ token, onDone }: { token: ClientToken; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mb-4 rounded-lg border border-emerald-300 bg-emerald-50 p-5 shadow-sm"
    >
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-base font-semibold text-emerald-900">
        Client-side token “{token.name}” created
      </h3>
      <div className="mt-3">
        <CopyField id={`${id}-token`} label="Token" value={token.token} copyLabel="Copy client-side token" />
      </div>
      <p className="mt-3 text-sm text-slate-700">Add the library to your web page with it:</p>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls a snippet wider than its box
        tabIndex={0}
        className="mt-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100"
      >
        <code>{snippet(token.token)}</code>
      </pre>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
        <a
          href={`/demo/embed.html?token=${encodeURIComponent(token.token)}`}
          target="_blank"
          rel="noopener"
          className="text-sm font-medium text-blue-700 underline hover:text-blue-900"
        >
          Try it on the demo page
        </a>
      </div>
    </section>
  );
}

/** The Developers page's client-side tokens. `canWrite`: create and revoke (not for viewers). */
export function ClientTokensSection({ canWrite }: { canWrite: boolean }) {
  const { pagination } = useListFilters("");
  const panel = usePanel();
  const [created, setCreated] = useState<ClientToken | null>(null);
  const [revoking, setRevoking] = useState<ClientToken | null>(null);
  const list = useClientTokens({ after: pagination.after, per_page: PER_PAGE, order_by: NEWEST_FIRST });
  const revoke = useUpdateClientToken();
  const toast = useToast();

  async function confirmRevoke() {
    if (!revoking) return;
    try {
      await revoke.mutateAsync({ id: revoking.id, input: { status: "revoked" } });
      toast.show(`Client-side token “${revoking.name}” revoked.`);
      if (created?.id === revoking.id) setCreated(null);
      setRevoking(null);
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  const createButton = (focusReturn: boolean) =>
    panel.newButton("Create client-side token", focusReturn, () => setCreated(null));

  const columns: Column<ClientToken>[] = [
    {
      key: "name",
      header: "Name",
      cell: (t) => (
        <div className="max-w-64">
          <p className="font-medium text-slate-900">{t.name}</p>
          {t.description && (
            <p className="truncate text-xs text-slate-500" title={t.description}>
              {t.description}
            </p>
          )}
        </div>
      ),
    },
    {
      key: "token",
      header: "Token",
      cell: (t) => (
        <div className="flex items-center gap-2">
          <code
            className={`font-mono text-xs whitespace-nowrap ${t.status === "revoked" ? "text-slate-500 line-through" : "text-slate-700"}`}
          >
            {t.token}
          </code>
          {t.status === "active" && <CopyButton value={t.token} label={`Copy token ${t.name}`} />}
        </div>
      ),
    },
    { key: "status", header: "Status", cell: (t) => <StatusBadge status={t.status} /> },
    {
      key: "created",
      header: "Created",
      className: "whitespace-nowrap",
      cell: (t) => <DateCell value={t.created_at} />,
    },
    {
      key: "revoked",
      header: "Revoked",
      className: "whitespace-nowrap",
      cell: (t) => (t.revoked_at ? <DateCell value={t.revoked_at} /> : <span className="text-slate-500">—</span>),
    },
    ...(canWrite
      ? [
          {
            key: "actions",
            header: "",
            srHeader: "Actions",
            className: "text-right",
            cell: (t: ClientToken) =>
              t.status === "revoked" ? null : (
                <Button
                  variant="danger"
                  size="sm"
                  onClick={() => {
                    revoke.reset();
                    setRevoking(t);
                  }}
                  aria-label={`Revoke token ${t.name}`}
                >
                  Revoke
                </Button>
              ),
          } satisfies Column<ClientToken>,
        ]
      : []),
  ];

  return (
    <div className="mt-8">
      {panel.editing && (
        <PanelSection id={panel.id} title="Create client-side token">
          <CreateClientTokenForm
            onCreated={(token) => {
              panel.setEditing(null);
              setCreated(token);
              pagination.reset();
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      <Section
        title="Client-side tokens"
        id="client-side-tokens"
        description={
          <>
            Tokens for <code className="font-mono">billing.js</code> on your web pages: they only preview prices and
            open checkouts, so they are safe to publish. Revoke a token to stop it at once.
          </>
        }
        actions={
          <Allowed permission="client_token.write" action="create client-side tokens">
            {createButton(true)}
          </Allowed>
        }
      >
        {created && <NewTokenPanel token={created} onDone={() => setCreated(null)} />}
        <PagedTable
          caption="Client-side tokens"
          columns={columns}
          rowKey={(t) => t.id}
          list={list}
          pagination={pagination}
          empty={
            <EmptyState
              title="No client-side tokens yet"
              description={
                canWrite
                  ? "Create a token to show prices and open checkouts from your website."
                  : "A developer or an admin can create one."
              }
              action={
                !panel.editing && (
                  <Allowed permission="client_token.write" action="create client-side tokens">
                    {createButton(false)}
                  </Allowed>
                )
              }
            />
          }
        />
      </Section>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this client-side token?"
        description={
          revoking && (
            <>
              <strong>{revoking.name}</strong> (<code className="font-mono text-xs">{revoking.token}</code>) stops
              working at once: pages using it can no longer show prices or open checkouts (they get 403
              invalid_client_token). This cannot be undone.
            </>
          )
        }
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        error={revoke.error?.message}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      />
    </div>
  );
}
