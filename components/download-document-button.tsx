"use client";

import { type ReactNode, useState } from "react";
import { Button, type ButtonSize, type ButtonVariant } from "@/components/button";
import { useToast } from "@/components/toast";
import { startDownload } from "@/lib/dashboard/documents";

/**
 * A button that downloads a document PDF: asks the API for a signed link (`fetchUrl`), then starts
 * the browser's download, showing `pendingLabel` meanwhile and a toast naming `document` on failure.
 */
export function DownloadDocumentButton({
  fetchUrl,
  document,
  children,
  pendingLabel,
  variant = "secondary",
  size = "md",
  ariaLabel,
}: {
  fetchUrl: () => Promise<string>;
  /** What is downloaded, for the error message: "the invoice", "credit note CN-000001". */
  document: string;
  children: ReactNode;
  pendingLabel: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  ariaLabel?: string;
}) {
  const [pending, setPending] = useState(false);
  const toast = useToast();

  async function download() {
    setPending(true);
    try {
      startDownload(await fetchUrl());
    } catch (error) {
      toast.show(`Could not download ${document}: ${(error as Error).message}`, "error");
    } finally {
      setPending(false);
    }
  }

  return (
    <Button
      variant={variant}
      size={size}
      onClick={download}
      pending={pending}
      pendingLabel={pendingLabel}
      aria-label={ariaLabel}
    >
      <DownloadIcon className={size === "sm" ? "h-3.5 w-3.5" : "h-4 w-4"} />
      {children}
    </Button>
  );
}

function DownloadIcon({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={className}>
      <path d="M10 3a1 1 0 0 1 1 1v7.59l2.3-2.3a1 1 0 1 1 1.4 1.42l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.42l2.3 2.3V4a1 1 0 0 1 1-1Zm-6 12a1 1 0 0 1 1 1v1h10v-1a1 1 0 1 1 2 0v2a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-2a1 1 0 0 1 1-1Z" />
    </svg>
  );
}
