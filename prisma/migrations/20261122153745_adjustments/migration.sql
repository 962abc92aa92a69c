-- CreateTable
CREATE TABLE "adjustments" (
    "id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "subscription_id" TEXT,
    "customer_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "credit_applied_to_balance" BOOLEAN NOT NULL DEFAULT false,
    "currency_code" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "subtotal" BIGINT NOT NULL,
    "tax" BIGINT NOT NULL,
    "total" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "retained_fee" BIGINT NOT NULL DEFAULT 0,
    "earnings" BIGINT NOT NULL,
    "has_payout" BOOLEAN NOT NULL,
    "tax_rates_used" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "adjustments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "adjustment_items" (
    "id" TEXT NOT NULL,
    "adjustment_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "item_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "subtotal" BIGINT NOT NULL,
    "tax" BIGINT NOT NULL,
    "total" BIGINT NOT NULL,

    CONSTRAINT "adjustment_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "adjustments_transaction_id_id_idx" ON "adjustments"("transaction_id", "id");

-- CreateIndex
CREATE INDEX "adjustments_customer_id_id_idx" ON "adjustments"("customer_id", "id");

-- CreateIndex
CREATE INDEX "adjustments_subscription_id_id_idx" ON "adjustments"("subscription_id", "id");

-- CreateIndex
CREATE INDEX "adjustments_status_id_idx" ON "adjustments"("status", "id");

-- CreateIndex
CREATE INDEX "adjustments_action_id_idx" ON "adjustments"("action", "id");

-- CreateIndex
CREATE INDEX "adjustment_items_item_id_idx" ON "adjustment_items"("item_id");

-- CreateIndex
CREATE UNIQUE INDEX "adjustment_items_adjustment_id_position_key" ON "adjustment_items"("adjustment_id", "position");

-- AddForeignKey
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "adjustment_items" ADD CONSTRAINT "adjustment_items_adjustment_id_fkey" FOREIGN KEY ("adjustment_id") REFERENCES "adjustments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
