/**
 * The stand-in's test cards: Stripe's documented test numbers (docs.stripe.com/testing) and the
 * `pm_card_*` PaymentMethod tokens that stand for them, each with the behaviour Stripe gives it.
 *
 * Behaviours (a saved card's behaviour can be switched later through the test-control API, which
 * is how tests make a card that paid at checkout decline at renewal: Stripe has no such card):
 * - `succeed`: every charge succeeds.
 * - `authenticate_unless_set_up` (4000 0025 0000 3155): a payment asks for 3-D Secure unless the card
 *   was set up for future use (a succeeded SetupIntent, or a payment with `setup_future_usage`);
 *   an off-session payment before that fails with `authentication_required`. Setting it up asks
 *   for authentication too.
 * - `authenticate_always` (4000 0027 6000 3184): every payment and every setup asks for 3-D Secure;
 *   off-session payments always fail with `authentication_required`.
 * - `decline` (4000 0000 0000 0002): `card_declined` / `generic_decline`; attaching fails too.
 * - `insufficient_funds` (4000 0000 0000 9995): `card_declined` / `insufficient_funds`; attaching fails too.
 * - `decline_after_attach` (4000 0000 0000 0341): attaching (and SetupIntents) succeed, every charge
 *   fails with `card_declined` / `generic_decline`, the first included.
 * - `dispute` (4000 0000 0000 0259): the charge succeeds, then a `fraudulent` dispute is opened.
 * - `processing`: a payment stays `processing` until the test-control API settles it (no Stripe
 *   card does this for cards; it stands for the asynchronous methods).
 * Any other number that passes the Luhn check is a "live" card: Stripe declines it in test mode
 * (`card_declined` / `test_mode_live_card`).
 */

export const BEHAVIOURS = [
  "succeed",
  "authenticate_unless_set_up",
  "authenticate_always",
  "decline",
  "insufficient_funds",
  "decline_after_attach",
  "dispute",
  "processing",
  "live_card",
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export function isBehaviour(value: string): value is Behaviour {
  return (BEHAVIOURS as readonly string[]).includes(value);
}

export interface TestCard {
  number: string;
  brand: string;
  funding: "credit" | "debit" | "prepaid";
  country: string;
  behaviour: Behaviour;
}

const card = (number: string, brand: string, behaviour: Behaviour, funding: TestCard["funding"] = "credit") => ({
  number,
  brand,
  funding,
  country: "US",
  behaviour,
});

/** Test numbers by number. */
export const TEST_CARDS: ReadonlyMap<string, TestCard> = new Map(
  [
    card("4242424242424242", "visa", "succeed"),
    card("4000056655665556", "visa", "succeed", "debit"),
    card("5555555555554444", "mastercard", "succeed"),
    card("2223003122003222", "mastercard", "succeed"),
    card("5200828282828210", "mastercard", "succeed", "debit"),
    card("5105105105105100", "mastercard", "succeed", "prepaid"),
    card("378282246310005", "amex", "succeed"),
    card("371449635398431", "amex", "succeed"),
    card("6011111111111117", "discover", "succeed"),
    card("6011000990139424", "discover", "succeed"),
    card("3056930009020004", "diners", "succeed"),
    card("36227206271667", "diners", "succeed"),
    card("3566002020360505", "jcb", "succeed"),
    card("6200000000000005", "unionpay", "succeed"),
    card("4000002500003155", "visa", "authenticate_unless_set_up"),
    card("4000002760003184", "visa", "authenticate_always"),
    card("4000000000000002", "visa", "decline"),
    card("4000000000009995", "visa", "insufficient_funds"),
    card("4000000000000341", "visa", "decline_after_attach"),
    card("4000000000000259", "visa", "dispute"),
  ].map((c) => [c.number, c]),
);

/** `pm_card_*` tokens (usable wherever a PaymentMethod ID is: each use makes a fresh PaymentMethod). */
export const TEST_TOKENS: ReadonlyMap<string, string> = new Map([
  ["pm_card_visa", "4242424242424242"],
  ["pm_card_visa_debit", "4000056655665556"],
  ["pm_card_mastercard", "5555555555554444"],
  ["pm_card_mastercard_debit", "5200828282828210"],
  ["pm_card_mastercard_prepaid", "5105105105105100"],
  ["pm_card_amex", "378282246310005"],
  ["pm_card_discover", "6011111111111117"],
  ["pm_card_diners", "3056930009020004"],
  ["pm_card_jcb", "3566002020360505"],
  ["pm_card_unionpay", "6200000000000005"],
  ["pm_card_authenticationRequiredOnSetup", "4000002500003155"],
  ["pm_card_authenticationRequired", "4000002760003184"],
  ["pm_card_threeDSecure2Required", "4000002760003184"],
  ["pm_card_chargeDeclined", "4000000000000002"],
  ["pm_card_chargeDeclinedInsufficientFunds", "4000000000009995"],
  ["pm_card_chargeCustomerFail", "4000000000000341"],
  ["pm_card_createDispute", "4000000000000259"],
]);

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
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

/** The brand of a card number by its prefix (the networks' published ranges). */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^(6011|65|64[4-9])/.test(number)) return "discover";
  if (/^(36|30[0-5]|38|39)/.test(number)) return "diners";
  if (/^35(2[89]|[3-8]\d)/.test(number)) return "jcb";
  if (/^62/.test(number)) return "unionpay";
  return "unknown";
}

/** What a number is to the stand-in: a test card, or a "live" card (declined in test mode). */
export function cardFor(number: string): TestCard {
  const known = TEST_CARDS.get(number);
  if (known) return known;
  return { number, brand: brandOf(number), funding: "credit", country: "US", behaviour: "live_card" };
}

/** The brand as Stripe displays it (`display_brand`). */
export function displayBrand(brand: string): string {
  return brand === "amex" ? "american_express" : brand === "diners" ? "diners_club" : brand;
}

/** The length of the security code a brand uses. */
export function cvcLength(brand: string): number {
  return brand === "amex" ? 4 : 3;
}
