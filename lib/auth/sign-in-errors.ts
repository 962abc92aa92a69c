/**
 * What the sign-in page may be told besides "no match" (shared by the server and the browser,
 * so no server code here). A throttled sign-in's error is `SignInThrottled:<seconds to wait>`.
 */
export const SIGN_IN_THROTTLED = "SignInThrottled";

/** The seconds to wait from a next-auth sign-in error, or null for any other error. */
export function throttledSeconds(error: string | null | undefined): number | null {
  const match = error ? new RegExp(`^${SIGN_IN_THROTTLED}:(\\d+)$`).exec(error) : null;
  return match ? Number(match[1]) : null;
}

/** "30 seconds", "1 minute", "15 minutes". */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
