/*!
 * billing.js — the client-side library of this billing service. Plain JavaScript (ES2020, every
 * current browser), no build step:
 *
 *   <script src="https://billing.example.com/js/billing.js"></script>
 *   <script>
 *     const billing = Billing.init({ token: "test_…" }); // a client-side token (Developers page)
 *     const preview = await billing.previewPrices({
 *       items: [{ priceId: "pri_…", quantity: 1 }],
 *       address: { countryCode: "DE" },
 *     });
 *     preview.items[0].formattedTotal; // "€11.90"
 *     await billing.openCheckout({
 *       items: [{ priceId: "pri_…", quantity: 1 }],
 *       customer: { email: "buyer@example.com" }, // or { id: "ctm_…" }
 *       address: { countryCode: "DE", postalCode: "10115" },
 *       successUrl: "https://example.com/thanks", // optional: linked from the paid checkout
 *     }); // goes to the hosted checkout
 *   </script>
 *
 * It talks to the service that served it (or `baseUrl`), through the endpoints under /js-api that
 * take only a client-side token. Errors reject with a BillingError: { status, code, detail, errors }.
 *
 * The hosted checkout is a page of its own (redirect, or a new tab with `target: "_blank"`), not
 * an iframe: the card form refuses to be framed by another site (clickjacking), as every page of
 * the service does.
 */
((global) => {
  const script = typeof document !== "undefined" ? document.currentScript : null;
  let scriptOrigin = null;
  try {
    if (script?.src) scriptOrigin = new URL(script.src).origin;
  } catch {
    scriptOrigin = null;
  }

  /** A refused or failed request: the service's error (code, detail, field errors). */
  class BillingError extends Error {
    constructor(status, body) {
      const error = body?.error || {};
      const code = error.code || "network_error";
      const detail = error.detail || "The billing service could not be reached.";
      const errors = error.errors || [];
      const fields = errors.length ? ` (${errors.map((e) => `${e.field} ${e.message}`).join("; ")})` : "";
      super(`${code}: ${detail}${fields}`);
      this.name = "BillingError";
      this.status = status;
      this.code = code;
      this.detail = detail;
      this.errors = errors;
      this.requestId = body?.meta?.request_id || null;
    }
  }

  const items = (list) =>
    Array.isArray(list)
      ? list.map((item) =>
          item && typeof item === "object"
            ? { price_id: item.priceId ?? item.price_id, quantity: item.quantity ?? 1 }
            : item,
        )
      : list;

  const address = (value) => {
    if (!value || typeof value !== "object") return value;
    const out = { country_code: value.countryCode ?? value.country_code };
    const postal = value.postalCode ?? value.postal_code;
    if (postal !== undefined && postal !== null && postal !== "") out.postal_code = postal;
    return out;
  };

  class BillingClient {
    constructor(options) {
      if (!options || typeof options.token !== "string" || !/^(test|live)_/.test(options.token)) {
        throw new Error("Billing.init needs { token: 'test_…' or 'live_…' }: a client-side token, never an API key.");
      }
      this.token = options.token;
      this.baseUrl = String(options.baseUrl || scriptOrigin || global.location?.origin || "").replace(/\/+$/, "");
    }

    async request(path, body) {
      let response;
      try {
        response = await fetch(`${this.baseUrl}/js-api/${path}`, {
          method: "POST",
          mode: "cors",
          credentials: "omit",
          headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      } catch {
        throw new BillingError(0, null);
      }
      const text = await response.text();
      let parsed = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (!response.ok || !parsed) throw new BillingError(response.status, parsed);
      return parsed.data;
    }

    /**
     * Prices as a buyer in `address.countryCode` sees them: each item priced on its own, with its
     * currency's unit price override for that country and tax (included or added, by the price's
     * tax mode), formatted. Resolves to { currencyCode, items: [{ priceId, quantity, productName,
     * name (the price's name, for customers), description (the price's internal description: never
     * show it to customers), billingCycle, taxRate, subtotal, tax, total, formattedSubtotal, formattedTax,
     * formattedTotal, formattedUnitTotal }], raw }.
     */
    async previewPrices(options = {}) {
      const body = { items: items(options.items) };
      if (options.address) body.address = address(options.address);
      if (options.currencyCode) body.currency_code = options.currencyCode;
      const data = await this.request("pricing-preview", body);
      return {
        currencyCode: data.currency_code,
        items: data.details.line_items.map((line) => ({
          priceId: line.price.id,
          quantity: line.quantity,
          productName: line.product ? line.product.name : null,
          name: line.price.name ?? null,
          description: line.price.description,
          billingCycle: line.price.billing_cycle,
          taxRate: line.tax_rate,
          subtotal: line.totals.subtotal,
          tax: line.totals.tax,
          total: line.totals.total,
          formattedSubtotal: line.formatted_totals.subtotal,
          formattedTax: line.formatted_totals.tax,
          formattedTotal: line.formatted_totals.total,
          formattedUnitTotal: line.formatted_unit_totals.total,
        })),
        raw: data,
      };
    }

    /**
     * Opens the hosted checkout for `items` and `customer` ({ email } or { id }) in `address`. By
     * default the page goes there (`target: "_self"`); `target: "_blank"` opens a new tab (call it
     * from a click, so that the browser allows it). Resolves to { transactionId, url } once the
     * checkout is on its way; with `open: false` it only returns them.
     */
    async openCheckout(options = {}) {
      const target = options.target || "_self";
      const body = { items: items(options.items), customer: options.customer, address: address(options.address) };
      if (options.currencyCode) body.currency_code = options.currencyCode;
      // Where the checkout sends the buyer back after paying (Paddle.js: settings.successUrl).
      const successUrl = options.successUrl ?? options.settings?.successUrl;
      if (successUrl) body.success_url = String(new URL(successUrl, global.location?.href));
      // A new tab must be opened during the click; it is sent to the checkout once that exists.
      const tab = options.open !== false && target === "_blank" ? global.open("", "_blank") : null;
      let data;
      try {
        data = await this.request("checkout", body);
      } catch (error) {
        tab?.close();
        throw error;
      }
      const result = { transactionId: data.transaction_id, url: data.checkout.url };
      if (options.open !== false) {
        if (tab) tab.location.href = result.url;
        else global.location.assign(result.url);
      }
      return result;
    }

    /**
     * Fills every element with `data-billing-price="pri_…"` under `root` (the document by default)
     * with that price's formatted total for `address`; resolves to the preview.
     */
    async renderPrices(options = {}) {
      const root = options.root || document;
      const elements = Array.from(root.querySelectorAll("[data-billing-price]"));
      const ids = [...new Set(elements.map((el) => el.getAttribute("data-billing-price")))];
      if (ids.length === 0) return { currencyCode: null, items: [], raw: null };
      const preview = await this.previewPrices({
        items: ids.map((id) => ({ priceId: id, quantity: 1 })),
        address: options.address,
        currencyCode: options.currencyCode,
      });
      const byId = new Map(preview.items.map((item) => [item.priceId, item]));
      for (const el of elements) {
        const item = byId.get(el.getAttribute("data-billing-price"));
        if (item) el.textContent = item.formattedTotal;
      }
      return preview;
    }
  }

  global.Billing = {
    version: "1",
    init: (options) => new BillingClient(options),
    BillingError,
  };
})(typeof window !== "undefined" ? window : globalThis);
