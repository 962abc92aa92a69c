import { Logger } from "graphile-worker";

/** graphile-worker's logger without its info chatter (warnings and errors still print). */
export function quietLogger(): Logger {
  return new Logger(() => (level, message) => {
    if (level === "error" || level === "warning") console.error(`[worker] ${message}`);
  });
}
