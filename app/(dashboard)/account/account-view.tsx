"use client";

import { signOut } from "next-auth/react";
import { FormShell, useForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { PageHeader, Section } from "@/components/page-header";
import { ErrorState, LoadingBlock } from "@/components/states";
import { useToast } from "@/components/toast";
import { type Account, useOwnAccount, useUpdateOwnAccount } from "@/lib/dashboard/account";

/**
 * The signed-in staff member's own login: their name, email and password. A new email or password
 * asks for the current password (the server checks it). After a new email the session, which holds
 * the old one, ends: sign in again with the new one.
 */
export function AccountView() {
  const account = useOwnAccount();
  return (
    <div>
      <PageHeader title="Your account" description="Your own login to this dashboard: your name, email and password." />
      {account.isLoading ? (
        <LoadingBlock label="Loading your account…" lines={3} />
      ) : account.error || !account.data ? (
        <ErrorState title="Your account could not be loaded" error={account.error} onRetry={() => account.refetch()} />
      ) : (
        <div className="space-y-6">
          <Section title="Profile">
            <ProfileForm account={account.data} />
          </Section>
          <Section title="Email address">
            <EmailForm account={account.data} />
          </Section>
          <Section title="Password">
            <PasswordForm />
          </Section>
        </div>
      )}
    </div>
  );
}

function ProfileForm({ account }: { account: Account }) {
  const state = useForm(() => ({ name: account.name ?? "" }), { autoFocus: false });
  const save = useUpdateOwnAccount();
  const toast = useToast();
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = state.values.name.trim();
    return state.run({
      fields: ["name"],
      body: name === (account.name ?? "") ? null : { name: name || null },
      onUnchanged: () => toast.show("Nothing to save.", "info"),
      send: async (body) => {
        const saved = await save.mutateAsync(body);
        state.reset({ name: saved.name ?? "" });
        toast.show("Name saved.");
      },
    });
  }
  return (
    <FormShell label="Profile" submitLabel="Save name" state={state} onSubmit={onSubmit}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          {...state.bind("name")}
          hint="Shown to your team and in the audit log."
        />
        <div className="text-sm">
          <p className="font-medium text-slate-700">Role</p>
          <p className="mt-1 text-slate-600">{account.role} (the owner or an admin changes roles, on Team)</p>
        </div>
      </div>
    </FormShell>
  );
}

function EmailForm({ account }: { account: Account }) {
  const state = useForm(() => ({ email: account.email, current_password: "" }), { autoFocus: false });
  const save = useUpdateOwnAccount();
  const toast = useToast();
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = state.values.email.trim().toLowerCase();
    return state.run({
      fields: ["email", "current_password"],
      body: email === account.email ? null : { email, current_password: state.values.current_password },
      onUnchanged: () => toast.show("That is already your email address.", "info"),
      send: async (body) => {
        const saved = await save.mutateAsync(body);
        toast.show(`Your email is now ${saved.email}. Sign in again with it.`);
        await signOut({ callbackUrl: "/sign-in" });
      },
    });
  }
  return (
    <FormShell label="Email address" submitLabel="Change email" state={state} onSubmit={onSubmit}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          {...state.bind("email")}
          hint="You sign in with it. Changing it signs you out."
        />
        <TextField
          label="Current password"
          name="current_password"
          type="password"
          autoComplete="current-password"
          {...state.bind("current_password")}
        />
      </div>
    </FormShell>
  );
}

function PasswordForm() {
  const state = useForm(() => ({ current_password: "", password: "", confirm: "" }), { autoFocus: false });
  const save = useUpdateOwnAccount();
  const toast = useToast();
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { current_password, password, confirm } = state.values;
    return state.run({
      fields: ["current_password", "password", "confirm"],
      local: { confirm: password !== confirm ? "Enter the same new password twice." : null },
      body: { current_password, password },
      send: async (body) => {
        await save.mutateAsync(body);
        state.reset({ current_password: "", password: "", confirm: "" });
        toast.show("Password changed. Use it the next time you sign in.");
      },
    });
  }
  return (
    <FormShell label="Password" submitLabel="Change password" state={state} onSubmit={onSubmit}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <TextField
          label="Current password"
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
          {...state.bind("current_password")}
        />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          {...state.bind("password")}
          hint="At least 10 characters."
        />
        <TextField
          label="New password again"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          {...state.bind("confirm")}
        />
      </div>
    </FormShell>
  );
}
