"use client";

import { useEffect, useId, useRef } from "react";
import { Button } from "@/components/button";
import { CopyField } from "@/components/copy-button";
import type { ApiKey } from "@/lib/dashboard/api-keys";

/**
 * The whole key, shown once right after creation. Only the server's hash remains afterwards, so
 * the panel says so plainly. Dismissing it drops the key from memory.
 */
export function NewKeyPanel({ apiKey, onDone }: { apiKey: ApiKey; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mb-6 rounded-lg border border-emerald-300 bg-emerald-50 p-5 shadow-sm"
    >
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-base font-semibold text-emerald-900">
        API key “{apiKey.name}” created
      </h2>
      <div
        role="alert"
        className="mt-3 flex gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        <span aria-hidden="true">⚠</span>
        <p>
          <strong>Copy this key now. It will not be shown again.</strong> Store it like a password, in your secrets
          manager or environment. If you lose it, create a new key and revoke this one.
        </p>
      </div>
      <div className="mt-4">
        <CopyField id={`${id}-key`} label="New API key" value={apiKey.key} copyLabel="Copy API key" />
        <p className="mt-2 text-xs text-slate-600">
          Send it as <code className="font-mono">Authorization: Bearer &lt;API key&gt;</code>. It grants{" "}
          {apiKey.permissions.length} permission{apiKey.permissions.length === 1 ? "" : "s"}
          {apiKey.expires_at ? ` and expires ${new Date(apiKey.expires_at).toLocaleString()}` : " and does not expire"}.
        </p>
      </div>
      <div className="mt-4">
        <Button variant="secondary" onClick={onDone}>
          I have stored the key
        </Button>
      </div>
    </section>
  );
}
