/**
 * Example entities of the kinds that are not a story's moving parts: the ones we store (exactly our
 * API's shape; the types hold the fields, the order is the API's) and, for the kinds we do not store
 * yet, the API family's entity shape. Client-safe (see common.ts).
 */

import type { Address } from "../../schemas/address.ts";
import type { ApiKey } from "../../schemas/api-key.ts";
import type { Business } from "../../schemas/business.ts";
import type { Customer } from "../../schemas/customer.ts";
import type { Discount } from "../../schemas/discount.ts";
import type { DiscountGroup } from "../../schemas/discount-group.ts";
import type { Price } from "../../schemas/price.ts";
import type { Product } from "../../schemas/product.ts";
import { EXAMPLE_IDS, EXAMPLE_START, EXAMPLE_TAX_RATE, type Json } from "./common.ts";

// ---------------------------------------------------------------------------------------------
// Entities we store: exactly our API's shape (the types hold the fields; the order is the API's)

const T0 = EXAMPLE_START;

export function exampleCustomer(): Customer {
  return {
    id: EXAMPLE_IDS.customer,
    name: "Sam Miller",
    email: "sam@example.com",
    marketing_consent: false,
    status: "active",
    custom_data: null,
    locale: "en",
    created_at: T0,
    updated_at: T0,
    import_meta: null,
  };
}

export function exampleAddress(customerId: string = EXAMPLE_IDS.customer): Address {
  return {
    id: EXAMPLE_IDS.address,
    customer_id: customerId,
    description: "Head Office",
    first_line: "4050 Jefferson Plaza, 41st Floor",
    second_line: null,
    city: "New York",
    postal_code: "10021",
    region: "NY",
    country_code: "US",
    custom_data: null,
    status: "active",
    created_at: T0,
    updated_at: T0,
    import_meta: null,
  };
}

export function exampleBusiness(customerId: string = EXAMPLE_IDS.customer): Business {
  return {
    id: EXAMPLE_IDS.business,
    customer_id: customerId,
    name: "Uplift Inc.",
    company_number: "555775291485",
    tax_identifier: "US123456789",
    status: "active",
    contacts: [{ name: "Parker Jones", email: "parker@example.com" }],
    created_at: T0,
    updated_at: T0,
    custom_data: null,
    import_meta: null,
  };
}

export function exampleProduct(): Product {
  return {
    id: EXAMPLE_IDS.product,
    name: "Analytics Pro",
    description: "Dashboards, alerts and exports for growing teams.",
    type: "standard",
    tax_category: "standard",
    image_url: "https://example.com/images/analytics-pro.png",
    custom_data: null,
    status: "active",
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function examplePrice(): Price {
  return {
    id: EXAMPLE_IDS.price,
    product_id: EXAMPLE_IDS.product,
    type: "standard",
    description: "Monthly, per seat",
    name: "Monthly",
    tax_mode: "account_setting",
    billing_cycle: { interval: "month", frequency: 1 },
    trial_period: null,
    unit_price: { amount: "3000", currency_code: "USD" },
    unit_price_overrides: [],
    custom_data: null,
    status: "active",
    quantity: { minimum: 1, maximum: 100 },
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleDiscount(): Discount {
  return {
    id: EXAMPLE_IDS.discount,
    status: "active",
    description: "Spring sale: 20% off the first three months",
    enabled_for_checkout: true,
    code: "SPRING20",
    type: "percentage",
    mode: "standard",
    amount: "20",
    currency_code: null,
    recur: true,
    maximum_recurring_intervals: 3,
    usage_limit: null,
    restrict_to: null,
    expires_at: null,
    times_used: 0,
    discount_group_id: null,
    custom_data: null,
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleDiscountGroup(): DiscountGroup {
  return {
    id: EXAMPLE_IDS.discountGroup,
    name: "Seasonal sales",
    status: "active",
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleApiKey(): ApiKey {
  return {
    id: EXAMPLE_IDS.apiKey,
    name: "Backend integration",
    description: "Used by the order service to create transactions.",
    key: "svc_apikey_sdbx_…k3Xq",
    status: "active",
    permissions: ["customer.read", "customer.write", "transaction.read", "transaction.write"],
    expires_at: "2025-09-18T12:00:00.000000Z",
    last_used_at: null,
    revoked_at: null,
    created_at: T0,
    updated_at: T0,
  };
}

// ---------------------------------------------------------------------------------------------
// Kinds we do not store yet: the API family's entity shape

export function exampleClientToken(): Json {
  return {
    id: EXAMPLE_IDS.clientToken,
    token: "test_7d279f61a3499fed520f7cd8c08",
    name: "Pricing page",
    description: "Opens checkouts from the marketing site.",
    status: "active",
    revoked_at: null,
    created_at: T0,
    updated_at: T0,
  };
}

/** A saved payment method as payment method events carry it (our API's shape: lib/schemas/payment-method.ts). */
export function examplePaymentMethod(
  customerId: string = EXAMPLE_IDS.customer,
  addressId: string = EXAMPLE_IDS.address,
  id: string = EXAMPLE_IDS.paymentMethod,
): Json {
  return {
    id,
    customer_id: customerId,
    address_id: addressId,
    type: "card",
    card: { type: "visa", last4: "4242", expiry_month: 5, expiry_year: 2028, cardholder_name: "Sam Miller" },
    paypal: null,
    south_korea_local_card: null,
    underlying_details: null,
    origin: "saved_during_purchase",
    saved_at: T0,
    updated_at: T0,
  };
}

export function examplePayout(): Json {
  return { id: EXAMPLE_IDS.payout, status: "paid", amount: "10000", currency_code: "USD" };
}

export function exampleReport(): Json {
  return {
    id: EXAMPLE_IDS.report,
    status: "ready",
    rows: 42,
    type: "transactions",
    filters: [{ name: "updated_at", operator: "lt", value: "2024-09-01T00:00:00.000000Z" }],
    expires_at: "2024-10-02T12:00:00.000000Z",
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleAdjustment(): Json {
  return {
    id: EXAMPLE_IDS.adjustment,
    action: "refund",
    type: "partial",
    transaction_id: EXAMPLE_IDS.transaction,
    subscription_id: EXAMPLE_IDS.subscription,
    customer_id: EXAMPLE_IDS.customer,
    reason: "Customer was charged for an extra seat by mistake.",
    credit_applied_to_balance: null,
    currency_code: "USD",
    status: "approved",
    items: [
      {
        id: EXAMPLE_IDS.adjustmentItem,
        item_id: EXAMPLE_IDS.transactionItem,
        type: "partial",
        amount: "3000",
        proration: null,
        totals: { subtotal: "3000", tax: "600", total: "3600" },
      },
    ],
    totals: {
      subtotal: "3000",
      tax: "600",
      total: "3600",
      fee: "180",
      retained_fee: "0",
      earnings: "2820",
      currency_code: "USD",
    },
    payout_totals: {
      subtotal: "3000",
      tax: "600",
      total: "3600",
      fee: "180",
      retained_fee: "0",
      chargeback_fee: { amount: "0", original: null },
      earnings: "2820",
      currency_code: "USD",
    },
    tax_rates_used: [{ tax_rate: EXAMPLE_TAX_RATE, totals: { subtotal: "3000", tax: "600", total: "3600" } }],
    created_at: T0,
    updated_at: T0,
  };
}
