"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { useToast } from "@/components/toast";
import { ApiClientError } from "@/lib/dashboard/api";
import { Allowed, usePermissions } from "@/lib/dashboard/permissions";
import { type AccountSettings, fileToBase64, useRemoveLogo, useUploadLogo } from "@/lib/dashboard/settings";
import { LOGO_CONTENT_TYPES, LOGO_MAX_BYTES, type LogoContentType } from "@/lib/schemas/account-settings";

const MAX_KB = LOGO_MAX_BYTES / 1024;

/** Why a chosen file cannot be a logo, checked before it is sent (the API checks again, for real). */
export function logoFileProblem(file: { type: string; size: number; name: string }): string | null {
  if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name} is not a PNG or JPEG image. Choose a .png or .jpg file (SVG is not accepted).`;
  }
  if (file.size > LOGO_MAX_BYTES) {
    return `${file.name} is ${Math.ceil(file.size / 1024)} KB: a logo can be at most ${MAX_KB} KB. Export it smaller (about 600 pixels wide is plenty).`;
  }
  return null;
}

/** The logo: a preview, "Upload logo" (a file chooser) and "Remove logo" (confirmed). */
export function LogoForm({ settings }: { settings: AccountSettings }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const toast = useToast();
  const { can } = usePermissions();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const hintId = useId();
  const problemId = useId();

  async function onChosen(file: File | undefined) {
    if (input.current) input.current.value = ""; // choosing the same file again fires a change
    if (!file) return;
    const refused = logoFileProblem(file);
    setProblem(refused);
    if (refused) return;
    try {
      await upload.mutateAsync({ content_type: file.type as LogoContentType, data: await fileToBase64(file) });
      toast.show("Logo uploaded.");
    } catch (error) {
      setProblem(error instanceof ApiClientError ? logoErrorText(error) : "The logo could not be uploaded. Try again.");
    }
  }

  async function onRemove() {
    setRemoveError(null);
    try {
      await remove.mutateAsync();
      setConfirming(false);
      toast.show("Logo removed.");
    } catch (error) {
      setRemoveError(error instanceof Error ? error.message : "The logo could not be removed.");
    }
  }

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div
        className="flex h-24 w-full shrink-0 items-center justify-center rounded-md border border-dashed border-slate-300 bg-white p-3 sm:w-56"
        data-testid="logo-preview"
      >
        {settings.logo_url ? (
          // biome-ignore lint/performance/noImgElement: a small versioned image of ours
          <img
            src={settings.logo_url}
            alt={`Logo of ${settings.merchant_name}`}
            className="max-h-full max-w-full object-contain"
          />
        ) : (
          <span className="text-sm text-slate-600">No logo yet</span>
        )}
      </div>
      <div className="space-y-2">
        <div className="flex flex-wrap gap-2">
          <Allowed permission="settings.write" action="change the logo">
            <Button
              variant="secondary"
              aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
              pending={upload.isPending}
              pendingLabel="Uploading…"
              onClick={() => input.current?.click()}
            >
              {settings.logo_url ? "Replace logo" : "Upload logo"}
            </Button>
          </Allowed>
          {settings.logo_url && (
            <Allowed permission="settings.write" action="remove the logo">
              <Button variant="danger" onClick={() => setConfirming(true)}>
                Remove logo
              </Button>
            </Allowed>
          )}
        </div>
        <input
          ref={input}
          type="file"
          accept={LOGO_CONTENT_TYPES.join(",")}
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="logo-file"
          disabled={!can("settings.write")}
          onChange={(event) => onChosen(event.target.files?.[0])}
        />
        <p id={hintId} className="text-xs text-slate-600">
          PNG or JPEG, at most {MAX_KB} KB. Shown on invoices, the checkout, the hosted invoice page, the customer
          portal and emails.
        </p>
        {problem && (
          <p id={problemId} role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Remove the logo?"
        description="Invoices, the checkout and emails show your business name without a logo from now on."
        confirmLabel="Remove logo"
        pending={remove.isPending}
        error={removeError}
        onConfirm={onRemove}
        onCancel={() => {
          setConfirming(false);
          setRemoveError(null);
        }}
      />
    </div>
  );
}

function logoErrorText(error: ApiClientError): string {
  const field = error.errors[0];
  if (field) return `The image was refused: ${field.message}.`;
  return error.message;
}
