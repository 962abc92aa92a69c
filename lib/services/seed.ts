/** Demo data for a new deployment: `npm run --silent cli -- seed`. Idempotent. */
export async function seed(): Promise<string> {
  return "Nothing to seed yet.";
}
