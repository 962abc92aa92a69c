import { z } from "zod";

/** GET /health: liveness only (no `meta`: it is the bare handler the benchmark measures against). */
export const healthSchema = z.object({ status: z.literal("ok") });
