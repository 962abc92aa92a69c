-- CreateTable
CREATE TABLE "transactions" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "customer_id" TEXT,
    "address_id" TEXT,
    "business_id" TEXT,
    "custom_data" JSONB,
    "currency_code" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'api',
    "subscription_id" TEXT,
    "invoice_id" TEXT,
    "invoice_number" TEXT,
    "collection_mode" TEXT NOT NULL DEFAULT 'automatic',
    "discount_id" TEXT,
    "billing_details" JSON,
    "billing_period_starts_at" TIMESTAMPTZ(6),
    "billing_period_ends_at" TIMESTAMPTZ(6),
    "details" JSON NOT NULL,
    "payments" JSON NOT NULL DEFAULT '[]',
    "checkout" JSON,
    "customer_snapshot" JSON,
    "address_snapshot" JSON,
    "business_snapshot" JSON,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "billed_at" TIMESTAMPTZ(6),
    "revised_at" TIMESTAMPTZ(6),

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transaction_items" (
    "id" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "price_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price" JSON NOT NULL,
    "product" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transaction_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_number_counters" (
    "merchant_id" TEXT NOT NULL,
    "last_number" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "invoice_number_counters_pkey" PRIMARY KEY ("merchant_id")
);

-- CreateTable
CREATE TABLE "tax_rates" (
    "country_code" TEXT NOT NULL,
    "rate" DECIMAL(7,6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tax_rates_pkey" PRIMARY KEY ("country_code")
);

-- CreateIndex
CREATE UNIQUE INDEX "transactions_invoice_number_key" ON "transactions"("invoice_number");

-- CreateIndex
CREATE INDEX "transactions_status_id_idx" ON "transactions"("status", "id");

-- CreateIndex
CREATE INDEX "transactions_customer_id_id_idx" ON "transactions"("customer_id", "id");

-- CreateIndex
CREATE INDEX "transactions_subscription_id_id_idx" ON "transactions"("subscription_id", "id");

-- CreateIndex
CREATE INDEX "transactions_collection_mode_id_idx" ON "transactions"("collection_mode", "id");

-- CreateIndex
CREATE INDEX "transactions_origin_id_idx" ON "transactions"("origin", "id");

-- CreateIndex
CREATE INDEX "transactions_created_at_id_idx" ON "transactions"("created_at", "id");

-- CreateIndex
CREATE INDEX "transactions_updated_at_id_idx" ON "transactions"("updated_at", "id");

-- CreateIndex
CREATE INDEX "transactions_billed_at_id_idx" ON "transactions"("billed_at", "id");

-- CreateIndex
CREATE INDEX "transactions_address_id_idx" ON "transactions"("address_id");

-- CreateIndex
CREATE INDEX "transactions_business_id_idx" ON "transactions"("business_id");

-- CreateIndex
CREATE INDEX "transactions_discount_id_idx" ON "transactions"("discount_id");

-- CreateIndex
CREATE INDEX "transaction_items_price_id_idx" ON "transaction_items"("price_id");

-- CreateIndex
CREATE UNIQUE INDEX "transaction_items_transaction_id_position_key" ON "transaction_items"("transaction_id", "position");

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_address_id_fkey" FOREIGN KEY ("address_id") REFERENCES "addresses"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_discount_id_fkey" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_price_id_fkey" FOREIGN KEY ("price_id") REFERENCES "prices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Written by hand (none of this can be declared in schema.prisma).

-- A transaction's items are written before the transaction's row, so that the row's event (one
-- statement with the row: the transactional outbox) includes them: the check waits for COMMIT.
ALTER TABLE "transaction_items" ALTER CONSTRAINT "transaction_items_transaction_id_fkey" DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_quantity_check" CHECK ("quantity" >= 1);

ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_check"
  CHECK ("status" IN ('draft', 'ready', 'billed', 'paid', 'completed', 'canceled', 'past_due'));
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_collection_mode_check"
  CHECK ("collection_mode" IN ('automatic', 'manual'));

-- order_by=billed_at: keyset pagination compares a value that is never NULL (not yet billed
-- sorts first), so the list orders by this expression, and this index serves it.
CREATE INDEX "transactions_billed_at_order_idx" ON "transactions" ((coalesce("billed_at", '-infinity'::timestamptz)), "id");

-- A tax rate is a fraction from 0 to 1.
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_rate_check" CHECK ("rate" >= 0 AND "rate" <= 1);
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_country_code_check" CHECK ("country_code" ~ '^[A-Z]{2}$');

-- The one merchant of the deployment starts at invoice number 1.
INSERT INTO "invoice_number_counters" ("merchant_id", "last_number") VALUES ('default', 0);
