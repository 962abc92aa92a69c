/**
 * The stand-in's browser side: its Stripe.js (stripe-js.browser.js, served at `/v3/` with the
 * stand-in's address filled in) and the 3-D Secure challenge page that Stripe.js frames in a dialog
 * (or that a `return_url` confirmation redirects to), with "Complete" and "Fail" buttons like
 * Stripe's own test page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type Stripe from "stripe";
import { decimals } from "./money.ts";

const SOURCE = readFileSync(path.join(import.meta.dirname, "stripe-js.browser.js"), "utf8");

export function stripeJs(apiBase: string): string {
  return SOURCE.replace("__STAND_IN_API__", apiBase);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function whatIsAuthenticated(intent: Stripe.PaymentIntent | Stripe.SetupIntent): string {
  if (intent.object === "setup_intent") return "saving a card for future payments";
  const amount = intent.amount / 10 ** decimals(intent.currency);
  const money = new Intl.NumberFormat("en", { style: "currency", currency: intent.currency.toUpperCase() }).format(
    amount,
  );
  return `a payment of ${money}`;
}

export function challengePage(intent: Stripe.PaymentIntent | Stripe.SetupIntent, returnUrl: string | null): string {
  const kind = intent.object;
  const data = JSON.stringify({
    intent: intent.id,
    kind,
    clientSecret: intent.client_secret,
    returnUrl,
  }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>3D Secure 2 Test Page</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; color: #1a1a2e; background: #ffffff; }
  h1 { font-size: 1.25rem; margin: 0 0 12px; }
  p { line-height: 1.5; margin: 0 0 12px; }
  .buttons { display: flex; gap: 12px; margin-top: 24px; }
  button { font: inherit; padding: 10px 18px; border-radius: 6px; border: 1px solid #4b5563; cursor: pointer; }
  #complete { background: #1d4ed8; color: #ffffff; border-color: #1d4ed8; }
  #fail { background: #ffffff; color: #1a1a2e; }
  .note { color: #4b5563; font-size: 0.9rem; }
</style>
</head>
<body>
<main>
  <h1>3D Secure 2 Test Page</h1>
  <p>This is a test authentication of ${escapeHtml(whatIsAuthenticated(intent))}. In live mode, the customer's bank would ask them to confirm it here.</p>
  <p class="note">Complete the authentication to let the payment go through, or fail it to see how a failed authentication is handled.</p>
  <div class="buttons">
    <button type="button" id="complete">Complete</button>
    <button type="button" id="fail">Fail</button>
  </div>
  <p id="status" role="status"></p>
</main>
<script>
  (() => {
    const data = ${data};
    const prefix = data.kind === "setup_intent" ? "setup_intent" : "payment_intent";
    async function answer(outcome) {
      for (const b of document.querySelectorAll("button")) b.disabled = true;
      document.getElementById("status").textContent = "Sending…";
      const response = await fetch("/_stand-in/three_d_secure/" + data.intent + "/" + outcome, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client_secret: data.clientSecret }),
      });
      const intent = await response.json();
      if (window.parent !== window) {
        window.parent.postMessage({ type: "stand-in-3ds-result", intent: data.intent, outcome: outcome }, "*");
        return;
      }
      if (data.returnUrl) {
        const url = new URL(data.returnUrl);
        url.searchParams.set(prefix, data.intent);
        url.searchParams.set(prefix + "_client_secret", data.clientSecret);
        url.searchParams.set("redirect_status", intent.status === "succeeded" ? "succeeded" : "failed");
        window.location.assign(url.toString());
        return;
      }
      document.getElementById("status").textContent = "Authentication " + (outcome === "complete" ? "completed" : "failed") + ".";
    }
    document.getElementById("complete").addEventListener("click", () => answer("complete"));
    document.getElementById("fail").addEventListener("click", () => answer("fail"));
  })();
</script>
</body>
</html>`;
}
