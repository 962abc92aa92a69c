import { describe, expect, it } from "vitest";
import { type ActivityNames, describeAudit, describeEvent, namesNeeded, phraseText } from "./activity-words.ts";

const TXN = "txn_01hv8x00000000000000000001";
const CTM = "ctm_01hv8x00000000000000000001";
const BIZ = "biz_01hv8x00000000000000000001";
const SUB = "sub_01hv8x00000000000000000001";

const names: ActivityNames = {
  customers: new Map([[CTM, "Sam Rivera"]]),
  businesses: new Map([[BIZ, "Becker Design"]]),
  invoices: new Map([[TXN, "INV-000001"]]),
};

const transaction = {
  id: TXN,
  customer_id: CTM,
  business_id: BIZ,
  invoice_number: "INV-000001",
  currency_code: "USD",
  details: { totals: { grand_total: "61785" } },
};

const say = (event_type: string, data: Record<string, unknown>) => {
  const phrase = describeEvent({ event_type, data }, names);
  return phrase ? phraseText(phrase) : null;
};

describe("events in business words", () => {
  it("says invoices, payments, refunds and subscriptions with amounts, numbers and names", () => {
    expect(say("transaction.billed", transaction)).toBe("Issued invoice INV-000001 ($617.85) to Becker Design");
    expect(say("transaction.completed", transaction)).toBe("Completed INV-000001 ($617.85) for Becker Design");
    expect(say("transaction.paid", transaction)).toBe("Received $617.85 from Becker Design for INV-000001");
    expect(say("transaction.created", { ...transaction, invoice_number: null })).toBe(
      "New transaction of $617.85 for Becker Design",
    );
    expect(say("transaction.past_due", transaction)).toBe("Invoice INV-000001 ($617.85) to Becker Design is past due");
    const refund = { transaction_id: TXN, action: "refund", currency_code: "USD", totals: { total: "10000" } };
    expect(say("adjustment.created", { ...refund, status: "approved" })).toBe("Refunded $100.00 on INV-000001");
    expect(say("adjustment.created", { ...refund, status: "pending_approval" })).toBe(
      "Refund of $100.00 requested on INV-000001",
    );
    expect(say("subscription.canceled", { id: SUB, customer_id: CTM })).toBe("Sam Rivera’s subscription was canceled");
    expect(say("subscription.created", { id: SUB, customer_id: CTM })).toBe("Sam Rivera subscribed");
    expect(say("customer.created", { id: CTM, name: "Sam Rivera" })).toBe("New customer Sam Rivera");
    expect(say("report.created", { id: "rep_1" })).toBeNull();
  });

  it("links what it names", () => {
    const phrase = describeEvent({ event_type: "transaction.billed", data: transaction }, names);
    expect(phrase).toContainEqual({ text: "INV-000001", href: `/transactions/${TXN}` });
    expect(phrase).toContainEqual({ text: "Becker Design", href: `/customers/${CTM}` });
  });

  it("asks for the names of the transactions and customers a page of events concerns", () => {
    expect(
      namesNeeded([
        { event_type: "transaction.billed", data: transaction },
        { event_type: "adjustment.created", data: { transaction_id: "txn_2", customer_id: "ctm_2" } },
      ]),
    ).toEqual({ transactions: [TXN, "txn_2"], customers: [CTM, "ctm_2"] });
  });
});

describe("audit entries in business words", () => {
  const entry = (action: string, detail: Record<string, unknown> | null, entity_id: string | null = null) => ({
    action,
    entity_id,
    actor_label: "ops@acme.example",
    detail: detail as any,
  });

  it("says what the change was from its detail", () => {
    const say = (e: ReturnType<typeof entry>) => phraseText(describeAudit(e));
    expect(
      say(
        entry(
          `POST /api/transactions/${TXN}/mark-paid`,
          { invoice_number: "INV-000001", amount: "61785", currency_code: "USD", business_name: "Becker Design" },
          TXN,
        ),
      ),
    ).toBe("Marked invoice INV-000001 ($617.85) paid by Becker Design");
    expect(
      say(
        entry(`PATCH /api/products/pro_01hv8x00000000000000000001`, {
          name: "Lumen",
          status: "archived",
          fields: ["status"],
        }),
      ),
    ).toBe("Archived product Lumen");
    expect(
      say(
        entry(
          `POST /api/subscriptions/${SUB}/cancel`,
          { scheduled_change: "cancel", customer_name: "Sam Rivera" },
          SUB,
        ),
      ),
    ).toBe("Scheduled Sam Rivera’s subscription to cancel at the end of its period");
    expect(say(entry("PATCH /api/account-settings", { fields: ["merchant_name", "timezone"] }))).toBe(
      "Changed the account settings (merchant name, timezone)",
    );
    expect(say(entry("PUT /api/tax-rates/GB", { fields: ["rate"] }))).toBe("Set the tax rate for GB");
    expect(say(entry("sign_in", null))).toBe("Signed in");
  });

  it("never shows a raw request, even for an entry without detail", () => {
    for (const action of [
      `PATCH /api/transactions/${TXN}`,
      "POST /api/customers",
      "DELETE /api/team/invites/usrinv_x",
    ]) {
      expect(phraseText(describeAudit(entry(action, null, TXN)))).not.toMatch(/\/api\/|PATCH|POST|DELETE/);
    }
  });
});
