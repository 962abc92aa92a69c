/*
 * The stand-in's Stripe.js (served at <stand-in>/v3/, what STRIPE_JS_URL points at in tests).
 * It implements the calls a checkout page makes, as Stripe.js documents them:
 *   Stripe(publishableKey)
 *   stripe.elements({ clientSecret, appearance })   (or { mode, amount, currency } with a clientSecret at confirm)
 *   elements.create("payment") → element.mount(selectorOrElement), element.on("change" | "ready" | "focus" | "blur")
 *   elements.submit()                                → { error? }
 *   stripe.confirmPayment({ elements, clientSecret?, confirmParams, redirect: "if_required" })
 *   stripe.confirmSetup({ elements, clientSecret?, confirmParams, redirect: "if_required" })
 *                                                    → { paymentIntent } | { setupIntent } | { error }
 *   stripe.handleNextAction({ clientSecret })        → the same, after the 3-D Secure challenge
 *   stripe.retrievePaymentIntent(clientSecret), stripe.retrieveSetupIntent(clientSecret)
 *   stripe.createPaymentMethod({ elements, params }) → { paymentMethod } | { error }
 * The element renders real inputs (card number, expiration date, security code) with labels into
 * the page; they have no `name`, so no form of the page ever submits them: card data goes from the
 * browser to the stand-in's API only, as with Stripe. A 3-D Secure challenge opens a modal dialog
 * framing the stand-in's challenge page, with "Complete" and "Fail" buttons like Stripe's test page.
 */
(() => {
  const API = "__STAND_IN_API__";
  const API_ORIGIN = new URL(API).origin;
  let uid = 0;

  class IntegrationError extends Error {
    constructor(message) {
      super(message);
      this.name = "IntegrationError";
    }
  }

  function encode(data, prefix, out) {
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined || value === null) continue;
      const name = prefix ? `${prefix}[${key}]` : key;
      if (typeof value === "object") encode(value, name, out);
      else out.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    }
    return out;
  }

  async function call(method, path, key, params) {
    const body = encode({ ...params, key }, "", []).join("&");
    const url = method === "GET" ? `${API}${path}?${body}` : `${API}${path}`;
    let response;
    try {
      response = await fetch(url, {
        method,
        headers: method === "GET" ? {} : { "Content-Type": "application/x-www-form-urlencoded" },
        body: method === "GET" ? undefined : body,
      });
    } catch (_error) {
      return { error: { type: "api_connection_error", message: "We could not reach Stripe. Check your connection." } };
    }
    const json = await response.json();
    if (!response.ok) return { error: json.error };
    return { object: json };
  }

  function intentIdOf(clientSecret) {
    if (typeof clientSecret !== "string" || !clientSecret.includes("_secret_")) {
      throw new IntegrationError("Invalid value for clientSecret: it should be the client_secret of an intent.");
    }
    return clientSecret.split("_secret_")[0];
  }

  // ------------------------------------------------------------------ card data

  function luhn(number) {
    let sum = 0;
    for (let i = 0; i < number.length; i++) {
      let digit = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return sum % 10 === 0;
  }

  function brandOf(number) {
    if (/^3[47]/.test(number)) return "amex";
    if (/^4/.test(number)) return "visa";
    if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
    return "unknown";
  }

  /** The card's problems, as Stripe.js's validation errors. */
  function validate(values) {
    const errors = {};
    const number = values.number.replace(/\s/g, "");
    const amex = brandOf(number) === "amex";
    if (number === "") errors.number = ["incomplete_number", "Your card number is incomplete."];
    else if (!/^\d+$/.test(number) || number.length < 13 || number.length > 19 || !luhn(number))
      errors.number =
        number.length < 13
          ? ["incomplete_number", "Your card number is incomplete."]
          : ["invalid_number", "Your card number is invalid."];
    const exp = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(values.expiry);
    if (values.expiry.trim() === "" || !exp)
      errors.expiry = ["incomplete_expiry", "Your card's expiration date is incomplete."];
    else {
      const month = Number(exp[1]);
      const year = exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2]);
      const now = new Date();
      if (month < 1 || month > 12) errors.expiry = ["invalid_expiry_month", "Your card's expiration date is invalid."];
      else if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))
        errors.expiry = ["invalid_expiry_year_past", "Your card's expiration year is in the past."];
    }
    const cvcLength = amex ? 4 : 3;
    if (values.cvc.trim().length < cvcLength || !/^\d+$/.test(values.cvc.trim()))
      errors.cvc = ["incomplete_cvc", "Your card's security code is incomplete."];
    return errors;
  }

  // ------------------------------------------------------------------ the Payment Element

  const THEMES = {
    stripe: { colorPrimary: "#635bff", colorBackground: "#ffffff", colorText: "#30313d", colorDanger: "#df1b41" },
    night: { colorPrimary: "#0085ff", colorBackground: "#30313d", colorText: "#ffffff", colorDanger: "#fe87a1" },
    flat: { colorPrimary: "#0570de", colorBackground: "#f6f8fa", colorText: "#30313d", colorDanger: "#df1b41" },
  };

  class PaymentElement {
    constructor(elements, type, options) {
      this.elements = elements;
      this.type = type;
      this.options = options || {};
      this.handlers = {};
      this.root = null;
      this.inputs = null;
      this.errors = {};
    }

    on(event, handler) {
      if (!this.handlers[event]) this.handlers[event] = [];
      this.handlers[event].push(handler);
      return this;
    }

    once(event, handler) {
      const wrapped = (e) => {
        this.off(event, wrapped);
        handler(e);
      };
      return this.on(event, wrapped);
    }

    off(event, handler) {
      this.handlers[event] = (this.handlers[event] || []).filter((h) => h !== handler);
      return this;
    }

    emit(event, payload) {
      for (const handler of this.handlers[event] || []) handler(payload);
    }

    values() {
      return {
        number: this.inputs ? this.inputs.number.value : "",
        expiry: this.inputs ? this.inputs.expiry.value : "",
        cvc: this.inputs ? this.inputs.cvc.value : "",
      };
    }

    mount(target) {
      const host = typeof target === "string" ? document.querySelector(target) : target;
      if (!host || !(host instanceof Element)) {
        throw new IntegrationError(
          `The selector you specified (${target}) applies to no DOM elements that are currently on the page.`,
        );
      }
      if (this.root) this.unmount();
      const id = `stand-in-${++uid}`;
      const theme = this.elements.theme();
      const root = document.createElement("fieldset");
      root.dataset.standInElement = this.type;
      Object.assign(root.style, {
        border: "0",
        margin: "0",
        padding: "0",
        minWidth: "0",
        fontFamily: theme.fontFamily,
        color: theme.colorText,
      });
      const legend = document.createElement("legend");
      legend.textContent = "Card";
      Object.assign(legend.style, { fontWeight: "600", marginBottom: "8px", padding: "0", fontSize: "0.95em" });
      root.appendChild(legend);

      const field = (name, label, attrs) => {
        const wrap = document.createElement("div");
        Object.assign(wrap.style, { display: "flex", flexDirection: "column", gap: "4px", flex: "1", minWidth: "0" });
        const labelEl = document.createElement("label");
        labelEl.htmlFor = `${id}-${name}`;
        labelEl.textContent = label;
        Object.assign(labelEl.style, { fontSize: "0.9em" });
        const input = document.createElement("input");
        input.id = `${id}-${name}`;
        input.type = "text";
        input.spellcheck = false;
        for (const [k, v] of Object.entries(attrs)) input.setAttribute(k, v);
        input.setAttribute("aria-describedby", `${id}-${name}-error`);
        Object.assign(input.style, {
          padding: "10px 12px",
          border: `1px solid ${theme.colorBorder}`,
          borderRadius: theme.borderRadius,
          background: theme.colorBackground,
          color: theme.colorText,
          fontSize: "16px",
          fontFamily: "inherit",
          width: "100%",
          boxSizing: "border-box",
        });
        const error = document.createElement("p");
        error.id = `${id}-${name}-error`;
        Object.assign(error.style, { color: theme.colorDanger, margin: "0", fontSize: "0.85em", minHeight: "0" });
        wrap.append(labelEl, input, error);
        input.addEventListener("focus", () => this.emit("focus", { elementType: this.type }));
        input.addEventListener("blur", () => {
          this.emit("blur", { elementType: this.type });
          if (input.value.trim() !== "") this.showErrors([name]);
        });
        input.addEventListener("input", () => {
          if (name === "number") input.value = formatNumber(input.value);
          if (name === "expiry") input.value = formatExpiry(input.value);
          if (this.errors[name]) this.showErrors([name]);
          const values = this.values();
          const problems = validate(values);
          this.emit("change", {
            elementType: this.type,
            empty: values.number + values.expiry + values.cvc === "",
            complete: Object.keys(problems).length === 0,
            collapsed: false,
            value: { type: "card" },
          });
        });
        return { wrap, input, error };
      };
      const number = field("number", "Card number", {
        inputmode: "numeric",
        autocomplete: "cc-number",
        placeholder: "1234 1234 1234 1234",
        maxlength: "23",
      });
      const expiry = field("expiry", "Expiration date", {
        inputmode: "numeric",
        autocomplete: "cc-exp",
        placeholder: "MM / YY",
        maxlength: "9",
      });
      const cvc = field("cvc", "Security code", {
        inputmode: "numeric",
        autocomplete: "cc-csc",
        placeholder: "CVC",
        maxlength: "4",
      });
      const row = document.createElement("div");
      Object.assign(row.style, { display: "flex", gap: "12px", marginTop: "12px" });
      row.append(expiry.wrap, cvc.wrap);
      root.append(number.wrap, row);
      host.appendChild(root);
      this.root = root;
      this.inputs = { number: number.input, expiry: expiry.input, cvc: cvc.input };
      this.errorEls = { number: number.error, expiry: expiry.error, cvc: cvc.error };
      setTimeout(() => this.emit("ready", { elementType: this.type }), 0);
      return this;
    }

    /** Shows (or clears) the messages of `names`; answers the first problem of all fields. */
    showErrors(names) {
      const problems = validate(this.values());
      for (const name of names) {
        const problem = problems[name];
        this.errors[name] = problem;
        const input = this.inputs[name];
        const error = this.errorEls[name];
        error.textContent = problem ? problem[1] : "";
        if (problem) error.setAttribute("role", "alert");
        else error.removeAttribute("role");
        if (problem) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
      }
      const first = ["number", "expiry", "cvc"].find((n) => problems[n]);
      return first ? { type: "validation_error", code: problems[first][0], message: problems[first][1] } : null;
    }

    cardData() {
      const values = this.values();
      const exp = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(values.expiry);
      return {
        number: values.number.replace(/\s/g, ""),
        exp_month: exp ? Number(exp[1]) : undefined,
        exp_year: exp ? (exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2])) : undefined,
        cvc: values.cvc.trim(),
      };
    }

    focus() {
      this.inputs?.number.focus();
    }

    blur() {
      document.activeElement?.blur();
    }

    clear() {
      if (!this.inputs) return;
      for (const input of Object.values(this.inputs)) input.value = "";
      this.showErrors(["number", "expiry", "cvc"]);
      for (const el of Object.values(this.errorEls)) el.textContent = "";
    }

    update(options) {
      Object.assign(this.options, options || {});
    }

    collapse() {}

    unmount() {
      this.root?.remove();
      this.root = null;
      this.inputs = null;
    }

    destroy() {
      this.unmount();
      this.elements.list = this.elements.list.filter((e) => e !== this);
    }
  }

  function formatNumber(value) {
    const digits = value.replace(/\D/g, "").slice(0, 19);
    if (/^3[47]/.test(digits))
      return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(" ");
    return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
  }

  function formatExpiry(value) {
    const digits = value.replace(/\D/g, "").slice(0, 4);
    return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
  }

  class Elements {
    constructor(stripe, options) {
      this.stripe = stripe;
      this.clientSecret = options.clientSecret;
      this.appearance = options.appearance || {};
      this.list = [];
    }

    theme() {
      const base = THEMES[this.appearance.theme] || THEMES.stripe;
      const variables = this.appearance.variables || {};
      return {
        colorPrimary: variables.colorPrimary || base.colorPrimary,
        colorBackground: variables.colorBackground || base.colorBackground,
        colorText: variables.colorText || base.colorText,
        colorDanger: variables.colorDanger || base.colorDanger,
        colorBorder: variables.colorBorder || (this.appearance.theme === "night" ? "#6b7280" : "#8c8f99"),
        fontFamily: variables.fontFamily || "inherit",
        borderRadius: variables.borderRadius || "6px",
      };
    }

    create(type, options) {
      if (type !== "payment" && type !== "card") {
        throw new IntegrationError(`The stand-in Stripe.js supports the "payment" and "card" elements, not "${type}".`);
      }
      const element = new PaymentElement(this, type, options);
      this.list.push(element);
      return element;
    }

    getElement(type) {
      return this.list.find((e) => e.type === type) || null;
    }

    update(options) {
      if (options?.appearance) this.appearance = options.appearance;
    }

    async fetchUpdates() {
      return {};
    }

    /** Validates the mounted element(s): `{}` or `{ error }` with the first problem, shown inline. */
    async submit() {
      const element = this.list.find((e) => e.inputs);
      if (!element) {
        return { error: { type: "validation_error", code: "incomplete", message: "The payment form is not mounted." } };
      }
      const error = element.showErrors(["number", "expiry", "cvc"]);
      if (error) {
        const field = ["number", "expiry", "cvc"].find((n) => element.errors[n]);
        element.inputs[field].focus();
        return { error };
      }
      return {};
    }
  }

  // ------------------------------------------------------------------ 3-D Secure

  function challenge(intent) {
    const action = intent.next_action || {};
    const url = action.use_stripe_sdk?.stripe_js || action.redirect_to_url?.url;
    if (!url) return Promise.resolve("none");
    return new Promise((resolve) => {
      const overlay = document.createElement("div");
      Object.assign(overlay.style, {
        position: "fixed",
        inset: "0",
        background: "rgba(0, 0, 0, 0.55)",
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        zIndex: "2147483647",
      });
      const dialog = document.createElement("div");
      dialog.setAttribute("role", "dialog");
      dialog.setAttribute("aria-modal", "true");
      dialog.setAttribute("aria-label", "3D Secure authentication");
      Object.assign(dialog.style, {
        background: "#ffffff",
        width: "min(440px, 92vw)",
        height: "min(480px, 86vh)",
        borderRadius: "8px",
        overflow: "hidden",
        boxShadow: "0 10px 40px rgba(0,0,0,0.35)",
      });
      const frame = document.createElement("iframe");
      frame.src = url;
      frame.title = "3D Secure authentication";
      frame.name = "stripe-challenge-frame";
      Object.assign(frame.style, { width: "100%", height: "100%", border: "0" });
      // Keyboard users land in the challenge, as in Stripe's modal.
      frame.addEventListener("load", () => frame.focus());
      dialog.appendChild(frame);
      overlay.appendChild(dialog);
      document.body.appendChild(overlay);
      const onMessage = (event) => {
        if (event.origin !== API_ORIGIN) return;
        const data = event.data || {};
        if (data.type !== "stand-in-3ds-result" || data.intent !== intent.id) return;
        window.removeEventListener("message", onMessage);
        overlay.remove();
        resolve(data.outcome);
      };
      window.addEventListener("message", onMessage);
    });
  }

  function errorOf(intent, kind) {
    const last = kind === "setup_intent" ? intent.last_setup_error : intent.last_payment_error;
    if (!last) return null;
    const error = { ...last };
    if (
      error.code === "payment_intent_authentication_failure" ||
      error.code === "setup_intent_authentication_failure"
    ) {
      error.message =
        "We are unable to authenticate your payment method. Please choose a different payment method and try again.";
    }
    error[kind] = intent;
    return error;
  }

  class StripeStandIn {
    constructor(key, options) {
      if (typeof key !== "string" || !/^pk_(test|live)_/.test(key)) {
        throw new IntegrationError(
          "Invalid API Key provided: Stripe() needs a publishable key (pk_test_… or pk_live_…).",
        );
      }
      this.key = key;
      this.options = options || {};
    }

    elements(options) {
      return new Elements(this, options || {});
    }

    async retrieve(kind, clientSecret) {
      const path = kind === "setup_intent" ? "/v1/setup_intents/" : "/v1/payment_intents/";
      return call("GET", path + intentIdOf(clientSecret), this.key, { client_secret: clientSecret });
    }

    async retrievePaymentIntent(clientSecret) {
      const result = await this.retrieve("payment_intent", clientSecret);
      return result.error ? { error: result.error } : { paymentIntent: result.object };
    }

    async retrieveSetupIntent(clientSecret) {
      const result = await this.retrieve("setup_intent", clientSecret);
      return result.error ? { error: result.error } : { setupIntent: result.object };
    }

    async createPaymentMethod(options) {
      const element = options?.elements?.list.find((e) => e.inputs) || options?.element;
      if (!element) throw new IntegrationError("createPaymentMethod needs `elements`.");
      const invalid = element.showErrors(["number", "expiry", "cvc"]);
      if (invalid) return { error: invalid };
      const result = await call("POST", "/v1/payment_methods", this.key, {
        type: "card",
        card: element.cardData(),
        billing_details: options.params?.billing_details,
      });
      return result.error ? { error: result.error } : { paymentMethod: result.object };
    }

    async confirm(kind, options) {
      const elements = options.elements;
      const clientSecret = options.clientSecret || elements?.clientSecret;
      const id = intentIdOf(clientSecret);
      const params = options.confirmParams || {};
      if (options.redirect !== "if_required" && !params.return_url) {
        throw new IntegrationError(
          `stripe.${kind === "setup_intent" ? "confirmSetup" : "confirmPayment"}(): the \`confirmParams.return_url\` argument is required unless passing \`redirect: 'if_required'\``,
        );
      }
      const body = { client_secret: clientSecret, expected_payment_method_type: "card", use_stripe_sdk: "true" };
      if (params.return_url) body.return_url = params.return_url;
      if (typeof params.payment_method === "string") {
        body.payment_method = params.payment_method;
      } else {
        const element = elements?.list.find((e) => e.inputs);
        if (!element)
          throw new IntegrationError(
            "Pass `elements` with a mounted Payment Element, or confirmParams.payment_method.",
          );
        const invalid = element.showErrors(["number", "expiry", "cvc"]);
        if (invalid) return { error: invalid };
        body.payment_method_data = {
          type: "card",
          card: element.cardData(),
          billing_details: params.payment_method_data?.billing_details,
        };
      }
      if (kind === "payment_intent" && params.receipt_email) body.receipt_email = params.receipt_email;
      if (kind === "payment_intent" && params.setup_future_usage !== undefined)
        body.setup_future_usage = params.setup_future_usage;
      const path = kind === "setup_intent" ? "/v1/setup_intents/" : "/v1/payment_intents/";
      const result = await call("POST", `${path + id}/confirm`, this.key, body);
      if (result.error) return { error: result.error };
      return this.finish(kind, result.object, clientSecret, options.redirect, params.return_url);
    }

    async finish(kind, intent, clientSecret, redirect, returnUrl) {
      let current = intent;
      if (current.status === "requires_action") {
        await challenge(current);
        const again = await this.retrieve(kind, clientSecret);
        if (again.error) return { error: again.error };
        current = again.object;
      }
      const error = current.status === "requires_payment_method" ? errorOf(current, kind) : null;
      if (error) return { error };
      const done = ["succeeded", "processing", "requires_capture"].includes(current.status);
      if (done && redirect !== "if_required" && returnUrl) {
        const url = new URL(returnUrl, window.location.href);
        url.searchParams.set(kind, current.id);
        url.searchParams.set(`${kind}_client_secret`, clientSecret);
        url.searchParams.set("redirect_status", current.status === "succeeded" ? "succeeded" : current.status);
        window.location.assign(url.toString());
        return new Promise(() => {});
      }
      return kind === "setup_intent" ? { setupIntent: current } : { paymentIntent: current };
    }

    confirmPayment(options) {
      return this.confirm("payment_intent", options || {});
    }

    confirmSetup(options) {
      return this.confirm("setup_intent", options || {});
    }

    async handleNextAction(options) {
      const clientSecret = options?.clientSecret;
      const kind = intentIdOf(clientSecret).startsWith("seti_") ? "setup_intent" : "payment_intent";
      const result = await this.retrieve(kind, clientSecret);
      if (result.error) return { error: result.error };
      return this.finish(kind, result.object, clientSecret, "if_required", undefined);
    }
  }

  function Stripe(key, options) {
    return new StripeStandIn(key, options);
  }
  Stripe.version = 3;
  Stripe.standIn = true;
  window.Stripe = Stripe;
})();
