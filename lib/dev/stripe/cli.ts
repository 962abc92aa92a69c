/**
 * The Stripe stand-in as a process (for Playwright's webServer and the bench):
 *
 *   tsx lib/dev/stripe/cli.ts [--port 12111] [--host 127.0.0.1] [--public-url URL]
 *       [--webhook-url URL --webhook-secret whsec_…] [--secret-key sk_test_… --publishable-key pk_test_…]
 *       [--name "Shop"] [--country US] [--currency usd] [--latency-ms 0] [--refunds auto|manual]
 *
 * It prints its address and keys, and runs until stopped (SIGINT or SIGTERM).
 * Point the product at it with STRIPE_API_URL=<address> and STRIPE_JS_URL=<address>/v3/.
 */
import { parseArgs } from "node:util";
import { DEFAULT_ACCOUNT, startStripeStandIn } from "./server.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "12111" },
    host: { type: "string", default: "127.0.0.1" },
    "public-url": { type: "string" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string" },
    "secret-key": { type: "string", default: DEFAULT_ACCOUNT.secretKey },
    "publishable-key": { type: "string", default: DEFAULT_ACCOUNT.publishableKey },
    name: { type: "string", default: DEFAULT_ACCOUNT.name },
    country: { type: "string", default: DEFAULT_ACCOUNT.country },
    currency: { type: "string", default: DEFAULT_ACCOUNT.defaultCurrency },
    "latency-ms": { type: "string", default: "0" },
    refunds: { type: "string", default: "auto" },
  },
  strict: true,
});

if (values.refunds !== "auto" && values.refunds !== "manual") {
  console.error(`--refunds must be auto or manual, not ${values.refunds}`);
  process.exit(2);
}
if (values["webhook-url"] && !values["webhook-secret"]) {
  console.error("--webhook-url needs --webhook-secret (whsec_…): events are always signed");
  process.exit(2);
}

const standIn = await startStripeStandIn({
  port: Number(values.port),
  host: values.host,
  publicUrl: values["public-url"],
  latencyMs: Number(values["latency-ms"]),
  refunds: { mode: values.refunds },
  accounts: [
    {
      ...DEFAULT_ACCOUNT,
      secretKey: values["secret-key"],
      publishableKey: values["publishable-key"],
      name: values.name,
      country: values.country,
      defaultCurrency: values.currency.toLowerCase(),
      webhookUrl: values["webhook-url"] ?? null,
      webhookSecret: values["webhook-secret"] ?? null,
    },
  ],
});

console.log(`Stripe stand-in listening on ${standIn.url}`);
console.log(`  STRIPE_API_URL=${standIn.url}`);
console.log(`  STRIPE_JS_URL=${standIn.stripeJsUrl}`);
console.log(`  secret key:      ${standIn.accounts[0]!.config.secretKey}`);
console.log(`  publishable key: ${standIn.accounts[0]!.config.publishableKey}`);
if (values["webhook-url"]) console.log(`  webhooks to:     ${values["webhook-url"]}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });
}
