-- AlterTable
ALTER TABLE "transaction_items" ADD COLUMN     "proration" JSON;

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "address_id" TEXT NOT NULL,
    "business_id" TEXT,
    "currency_code" TEXT NOT NULL,
    "collection_mode" TEXT NOT NULL,
    "billing_details" JSON,
    "billing_cycle_interval" TEXT NOT NULL,
    "billing_cycle_frequency" INTEGER NOT NULL,
    "billing_anchor_at" TIMESTAMPTZ(6) NOT NULL,
    "started_at" TIMESTAMPTZ(6) NOT NULL,
    "first_billed_at" TIMESTAMPTZ(6),
    "next_billed_at" TIMESTAMPTZ(6),
    "paused_at" TIMESTAMPTZ(6),
    "canceled_at" TIMESTAMPTZ(6),
    "current_period_starts_at" TIMESTAMPTZ(6),
    "current_period_ends_at" TIMESTAMPTZ(6),
    "discount_id" TEXT,
    "discount_starts_at" TIMESTAMPTZ(6),
    "discount_ends_at" TIMESTAMPTZ(6),
    "scheduled_change" JSON,
    "custom_data" JSONB,
    "import_meta" JSON,
    "payment_method_id" TEXT,
    "transaction_id" TEXT,
    "next_retry_at" TIMESTAMPTZ(6),
    "retry_count" INTEGER NOT NULL DEFAULT 0,
    "next_action_at" TIMESTAMPTZ(6),
    "clock_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_items" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "price_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "recurring" BOOLEAN NOT NULL DEFAULT true,
    "price" JSON NOT NULL,
    "product" JSON NOT NULL,
    "previously_billed_at" TIMESTAMPTZ(6),
    "trial_starts_at" TIMESTAMPTZ(6),
    "trial_ends_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_charges" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "price_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price" JSON NOT NULL,
    "product" JSON NOT NULL,
    "proration" JSON,
    "transaction_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_charges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_methods" (
    "id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "address_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "card" JSON,
    "origin" TEXT NOT NULL,
    "behavior" TEXT NOT NULL DEFAULT 'pays',
    "saved_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_methods_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_balances" (
    "customer_id" TEXT NOT NULL,
    "currency_code" TEXT NOT NULL,
    "available" BIGINT NOT NULL DEFAULT 0,
    "reserved" BIGINT NOT NULL DEFAULT 0,
    "used" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_balances_pkey" PRIMARY KEY ("customer_id","currency_code")
);

-- CreateIndex
CREATE INDEX "subscriptions_status_id_idx" ON "subscriptions"("status", "id");

-- CreateIndex
CREATE INDEX "subscriptions_customer_id_id_idx" ON "subscriptions"("customer_id", "id");

-- CreateIndex
CREATE INDEX "subscriptions_address_id_id_idx" ON "subscriptions"("address_id", "id");

-- CreateIndex
CREATE INDEX "subscriptions_collection_mode_id_idx" ON "subscriptions"("collection_mode", "id");

-- CreateIndex
CREATE INDEX "subscriptions_next_action_at_idx" ON "subscriptions"("next_action_at");

-- CreateIndex
CREATE INDEX "subscriptions_next_billed_at_id_idx" ON "subscriptions"("next_billed_at", "id");

-- CreateIndex
CREATE INDEX "subscription_items_price_id_subscription_id_idx" ON "subscription_items"("price_id", "subscription_id");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_items_subscription_id_position_key" ON "subscription_items"("subscription_id", "position");

-- CreateIndex
CREATE INDEX "subscription_charges_subscription_id_transaction_id_idx" ON "subscription_charges"("subscription_id", "transaction_id");

-- CreateIndex
CREATE INDEX "payment_methods_customer_id_id_idx" ON "payment_methods"("customer_id", "id");

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_items" ADD CONSTRAINT "subscription_items_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_charges" ADD CONSTRAINT "subscription_charges_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_balances" ADD CONSTRAINT "credit_balances_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A period of a subscription is billed once: at most one renewal transaction per (subscription, period start).
CREATE UNIQUE INDEX "transactions_subscription_renewal_key" ON "transactions"("subscription_id", "billing_period_starts_at") WHERE "origin" = 'subscription_recurring';

-- next_action_at: when the engine next has something to do for the subscription, derived from
-- the columns it depends on by every write (so no write can forget it):
--   a renewal at next_billed_at (active, trialing and past_due subscriptions without a scheduled change),
--   the scheduled change at its effective_at,
--   the next dunning retry or payment-terms check at next_retry_at.
-- Paused subscriptions with a scheduled resume have it as their scheduled change; canceled ones have nothing.
CREATE FUNCTION subscriptions_next_action_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'canceled' THEN
    NEW.next_action_at := NULL;
  ELSE
    NEW.next_action_at := LEAST(
      CASE WHEN NEW.status IN ('active', 'trialing', 'past_due') AND NEW.scheduled_change IS NULL
           THEN NEW.next_billed_at END,
      (NEW.scheduled_change->>'effective_at')::timestamptz,
      NEW.next_retry_at);
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER subscriptions_next_action_at BEFORE INSERT OR UPDATE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION subscriptions_next_action_at();
