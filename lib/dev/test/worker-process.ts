/**
 * A worker process for tests (crash and concurrency tests spawn and kill it): the real worker,
 * without the CLI's generate and migrate steps. Prints "ready <pool id>" once it runs.
 */
import { startWorker } from "../../worker/worker.ts";

const worker = await startWorker({
  concurrency: Number(process.env.BILLING_WORKER_CONCURRENCY ?? 10),
  handleSignals: true,
});
console.log(`ready ${worker.id}`);
await worker.done;
process.exit(0);
