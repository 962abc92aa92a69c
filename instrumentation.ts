/**
 * Next.js calls `register` once when the server starts: the background worker (webhook delivery,
 * simulations, retention) runs inside the web process unless BILLING_WORKER=off, e.g. when
 * separate `npm run --silent cli -- worker` processes do the work.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { config } = await import("./lib/config");
  if (!config.worker.inProcess || !process.env.DATABASE_URL) return;
  const { startWorker } = await import("./lib/events/worker");
  const worker = await startWorker();
  const stop = () => {
    void worker.stop();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
