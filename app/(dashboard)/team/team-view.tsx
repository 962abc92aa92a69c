"use client";

import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CopyField } from "@/components/copy-button";
import { type Column, DataTable } from "@/components/data-table";
import { FormActions, FormError, SelectField, TextField } from "@/components/form";
import { DateCell } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { ROLE_HELP, ROLES } from "@/lib/auth/permissions";
import { ApiClientError, type FieldError } from "@/lib/dashboard/api";
import { usePermissions } from "@/lib/dashboard/permissions";
import {
  type TeamInvite,
  type TeamMember,
  useChangeRole,
  useCreateInvite,
  useInvites,
  useMembers,
  useRemoveMember,
  useRevokeInvite,
} from "@/lib/dashboard/team";

function InviteForm() {
  const create = useCreateInvite();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<string>("viewer");
  const [error, setError] = useState<{ message: string; fields: FieldError[]; requestId?: string } | null>(null);
  const [link, setLink] = useState<TeamInvite | null>(null);
  const linkId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const invite = await create.mutateAsync({ email: email.trim(), role });
      setLink(invite);
      setEmail("");
      setError(null);
    } catch (e) {
      if (e instanceof ApiClientError) setError({ message: e.message, fields: e.errors, requestId: e.requestId });
      else setError({ message: (e as Error).message, fields: [] });
    }
  };
  const field = (name: string) => error?.fields.find((f) => f.field === name)?.message ?? null;

  return (
    <div className="space-y-4">
      <form onSubmit={submit} noValidate aria-label="Invite a teammate" className="space-y-4">
        <FormError
          message={error?.message ?? null}
          other={error?.fields.filter((f) => f.field !== "email" && f.field !== "role")}
          requestId={error?.requestId}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Email"
            type="email"
            required
            autoComplete="off"
            value={email}
            error={field("email")}
            onChange={(event) => setEmail(event.target.value)}
          />
          <SelectField
            label="Role"
            value={role}
            error={field("role")}
            onChange={(event) => setRole(event.target.value)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r} ({ROLE_HELP[r]})
              </option>
            ))}
          </SelectField>
        </div>
        <FormActions>
          <Button type="submit" pending={create.isPending} pendingLabel="Inviting…" disabled={email.trim() === ""}>
            Send invitation
          </Button>
        </FormActions>
      </form>
      {link?.url && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-4">
          <p className="mb-2 text-sm text-emerald-900">
            Invitation sent to <strong>{link.email}</strong> ({link.role}). You can also send them this link yourself:
            it works once, for 7 days, and is shown only now (the email in the{" "}
            <Link href="/emails" className="underline">
              Emails
            </Link>{" "}
            log hides it).
          </p>
          <CopyField id={linkId} label="Invitation link" value={link.url} copyLabel="Copy invitation link" />
        </div>
      )}
    </div>
  );
}

function MemberActions({ member, self, owners }: { member: TeamMember; self: boolean; owners: number }) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lastOwner = member.role === "owner" && owners <= 1;
  const roleHint = lastOwner ? "The last owner keeps the owner role: make another member an owner first." : undefined;
  const removeHint = self
    ? "You cannot remove yourself: another owner can."
    : lastOwner
      ? "The last owner cannot be removed."
      : undefined;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <label className="sr-only" htmlFor={`role-${member.id}`}>
        Role of {member.email}
      </label>
      <select
        id={`role-${member.id}`}
        value={member.role}
        disabled={lastOwner || changeRole.isPending}
        title={roleHint}
        onChange={async (event) => {
          try {
            await changeRole.mutateAsync({ id: member.id, role: event.target.value });
            toast.show(`${member.email} is now ${event.target.value}.`, "success");
          } catch (e) {
            toast.show((e as Error).message, "error");
          }
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm disabled:opacity-60"
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <Button
        variant="danger"
        size="sm"
        disabled={Boolean(removeHint)}
        title={removeHint}
        onClick={() => {
          setError(null);
          setConfirming(true);
        }}
      >
        Remove<span className="sr-only"> {member.email}</span>
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${member.email}?`}
        description="They lose access to the dashboard at once. Their entries in the audit log stay."
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={error}
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(member.id);
            setConfirming(false);
            toast.show(`${member.email} was removed from the team.`, "success");
          } catch (e) {
            setError((e as Error).message);
          }
        }}
      />
    </div>
  );
}

function RevokeInvite({ invite }: { invite: TeamInvite }) {
  const revoke = useRevokeInvite();
  const toast = useToast();
  return (
    <Button
      variant="secondary"
      size="sm"
      pending={revoke.isPending}
      onClick={async () => {
        try {
          await revoke.mutateAsync(invite.id);
          toast.show(`The invitation of ${invite.email} no longer works.`, "success");
        } catch (e) {
          toast.show((e as Error).message, "error");
        }
      }}
    >
      Revoke<span className="sr-only"> the invitation of {invite.email}</span>
    </Button>
  );
}

export function TeamView({ selfId }: { selfId?: string }) {
  const { can, role } = usePermissions();
  const allowed = can("user.read");
  if (!allowed) {
    return (
      <>
        <PageHeader title="Team" description="Who can sign in to this dashboard, and with which role." />
        <EmptyState
          title="Only owners manage the team"
          description={`Your role (${role ?? "unknown"}) cannot see or change the team. Ask an owner to invite someone or to change a role.`}
        />
      </>
    );
  }
  return <OwnerTeamView selfId={selfId} />;
}

function OwnerTeamView({ selfId }: { selfId?: string }) {
  const members = useMembers();
  const invites = useInvites();
  const rows = members.data?.data;
  const owners = rows?.filter((m) => m.role === "owner").length ?? 0;
  const memberColumns: Column<TeamMember>[] = [
    {
      key: "email",
      header: "Email",
      cell: (m) => (
        <span className="font-medium text-slate-900">
          {m.email}
          {m.id === selfId && <span className="ml-2 text-xs text-slate-500">(you)</span>}
        </span>
      ),
    },
    { key: "role", header: "Role", cell: (m) => <StatusBadge status={m.role} tone="slate" /> },
    {
      key: "last",
      header: "Last sign-in",
      className: "whitespace-nowrap",
      cell: (m) =>
        m.last_sign_in_at ? <DateCell value={m.last_sign_in_at} /> : <span className="text-slate-500">Never</span>,
    },
    { key: "created", header: "Added", className: "whitespace-nowrap", cell: (m) => <DateCell value={m.created_at} /> },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (m) => <MemberActions member={m} self={m.id === selfId} owners={owners} />,
    },
  ];
  const inviteColumns: Column<TeamInvite>[] = [
    { key: "email", header: "Email", cell: (i) => i.email },
    { key: "role", header: "Role", cell: (i) => i.role },
    { key: "status", header: "Status", cell: (i) => <StatusBadge status={i.status} /> },
    {
      key: "expires",
      header: "Expires",
      className: "whitespace-nowrap",
      cell: (i) => <DateCell value={i.expires_at} />,
    },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (i) => <RevokeInvite invite={i} />,
    },
  ];
  return (
    <>
      <PageHeader
        title="Team"
        description="Who can sign in to this dashboard, and with which role. Every change here is recorded in the audit log."
      />
      <div className="space-y-6">
        <Section title="Members">
          <DataTable
            caption="Members"
            columns={memberColumns}
            rows={rows}
            rowKey={(m) => m.id}
            isLoading={members.isLoading}
            error={members.error}
            onRetry={() => members.refetch()}
            empty={<EmptyState title="No members" description="Invite someone below." />}
          />
        </Section>
        <Section
          title="Invite a teammate"
          description="They get an email with a one-time link to set their password (valid 7 days)."
        >
          <InviteForm />
        </Section>
        <Section title="Pending invitations">
          <DataTable
            caption="Pending invitations"
            columns={inviteColumns}
            rows={invites.data?.data}
            rowKey={(i) => i.id}
            isLoading={invites.isLoading}
            error={invites.error}
            onRetry={() => invites.refetch()}
            empty={<EmptyState title="No pending invitations" description="Invitations not yet accepted show here." />}
          />
        </Section>
      </div>
    </>
  );
}
