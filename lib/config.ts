/** Deployment configuration, read from the environment once. */
export type Environment = "sandbox" | "live";

function environment(): Environment {
  const value = (process.env.BILLING_ENVIRONMENT ?? "sandbox").toLowerCase();
  if (value !== "sandbox" && value !== "live") {
    throw new Error(`BILLING_ENVIRONMENT must be "sandbox" or "live", not "${value}"`);
  }
  return value;
}

export const config = {
  get environment(): Environment {
    return environment();
  },
  get databaseUrl(): string {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    return url;
  },
  get port(): number {
    return Number(process.env.PORT ?? 3000);
  },
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: 1024 * 1024,
};
