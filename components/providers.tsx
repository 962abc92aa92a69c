"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { SessionProvider } from "next-auth/react";
import { useState } from "react";
import { ApiClientError } from "@/lib/dashboard/api";
import { ToastProvider } from "./toast";

/**
 * A dashboard request refused with 401 means the session ended (expired, signed out in another
 * tab, login removed): go to the sign-in page and come back here afterwards.
 */
function onApiError(error: unknown): void {
  if (error instanceof ApiClientError && error.status === 401 && error.code === "invalid_token") {
    const back = `${window.location.pathname}${window.location.search}`;
    window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
  }
}

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: onApiError }),
        mutationCache: new MutationCache({ onError: onApiError }),
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            // Client errors (4xx) will not change on retry.
            retry: (count, error) => !(error instanceof ApiClientError && error.status < 500) && count < 2,
          },
        },
      }),
  );
  return (
    <SessionProvider>
      <QueryClientProvider client={client}>
        <ToastProvider>{children}</ToastProvider>
      </QueryClientProvider>
    </SessionProvider>
  );
}
