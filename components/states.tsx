import type { ReactNode } from "react";
import { ApiClientError } from "@/lib/dashboard/api";
import { Button } from "./button";

export function Skeleton({ className = "" }: { className?: string }) {
  return <span aria-hidden="true" className={`block animate-pulse rounded bg-slate-200 ${className}`} />;
}

/** A placeholder for a block that is loading, announced once to screen readers. */
export function LoadingBlock({ label = "Loading…", lines = 4 }: { label?: string; lines?: number }) {
  return (
    <div role="status" aria-live="polite" className="space-y-3 py-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className={`h-4 ${i % 2 === 0 ? "w-2/3" : "w-1/2"}`} />
      ))}
    </div>
  );
}

export function EmptyState({
  title,
  description,
  action,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center px-6 py-12 text-center">
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {description && <p className="mt-1 max-w-md text-sm text-slate-600">{description}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/** What went wrong, with the request ID to quote to support, and a way to try again. */
export function ErrorState({
  error,
  title = "Could not load this",
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  const message = error instanceof Error ? error.message : "Something went wrong.";
  const apiError = error instanceof ApiClientError ? error : null;
  // A 4xx (not found, forbidden) will answer the same again; offer a retry for the rest.
  const retryable = !apiError || apiError.status >= 500 || apiError.status === 429;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-4 text-sm text-red-800">
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{message}</p>
      {apiError && (
        <p className="mt-2 text-xs text-red-700">
          Error code <code className="font-mono">{apiError.code}</code>
          {apiError.requestId && (
            <>
              {" · "}Request ID <code className="select-all font-mono">{apiError.requestId}</code>
            </>
          )}
        </p>
      )}
      {onRetry && retryable && (
        <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
