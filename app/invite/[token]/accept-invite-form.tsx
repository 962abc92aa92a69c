"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { AuthFormAlert, AuthSubmit } from "@/components/auth-form";
import { ApiClientError, api } from "@/lib/dashboard/api";

const INPUT = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

export function AcceptInviteForm({
  token,
  email,
  minLength,
  maxLength,
}: {
  token: string;
  email: string;
  minLength: number;
  maxLength: number;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [joined, setJoined] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const name = String(form.get("name") ?? "").trim();
    if (password.length < minLength) return setError(`The password must be at least ${minLength} characters.`);
    if (password.length > maxLength) return setError(`The password must be at most ${maxLength} characters.`);
    if (password !== String(form.get("confirm") ?? "")) return setError("The two passwords differ.");
    setPending(true);
    setError(null);
    try {
      await api("/team/invites/accept", { method: "POST", body: { token, password, ...(name ? { name } : {}) } });
    } catch (e) {
      setPending(false);
      const [field] = e instanceof ApiClientError ? e.errors : [];
      setError(field ? `${field.field} ${field.message}` : (e as Error).message);
      return;
    }
    setJoined(true);
    const result = await signIn("credentials", { email, password, redirect: false });
    if (result && !result.error) {
      router.replace("/");
      router.refresh();
      return;
    }
    setPending(false);
  }

  if (joined && !pending) {
    return (
      <p role="status" className="mt-4 text-sm text-slate-700">
        Your login is ready.{" "}
        <Link href="/sign-in" className="font-medium text-brand-700 hover:underline">
          Sign in
        </Link>{" "}
        with {email} and your new password.
      </p>
    );
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <div>
        <label htmlFor="name" className="block text-sm font-medium text-slate-700">
          Your name <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input id="name" name="name" autoComplete="name" maxLength={200} className={INPUT} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          maxLength={maxLength}
          aria-describedby="password-hint"
          className={INPUT}
        />
        <p id="password-hint" className="mt-1 text-xs text-slate-500">
          At least {minLength} characters.
        </p>
      </div>
      <div>
        <label htmlFor="confirm" className="block text-sm font-medium text-slate-700">
          Password again
        </label>
        <input id="confirm" name="confirm" type="password" autoComplete="new-password" required className={INPUT} />
      </div>
      <AuthFormAlert error={error} />
      <AuthSubmit pending={pending} label="Join and sign in" pendingLabel="Joining…" />
    </form>
  );
}
