/**
 * Next.js calls `register` once when the server starts: the background worker (webhook delivery,
 * simulations, retention) runs inside the web process unless BILLING_WORKER=off, e.g. when
 * separate `npm run --silent cli -- worker` processes do the work.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Requests carry their socket's address in a header no client can set (sign-in limits need it).
  const { installClientAddressHeader } = await import("./lib/http/client-address");
  installClientAddressHeader();
  const { config } = await import("./lib/config");
  if (!config.worker.inProcess || !process.env.DATABASE_URL) return;
  const { startWorker } = await import("./lib/worker/worker");
  // On SIGINT/SIGTERM the worker stops taking jobs and hands back what it holds (best effort: Next
  // exits the process too; anything left locked is freed by the other workers' sweep).
  await startWorker({ handleSignals: true });
}
