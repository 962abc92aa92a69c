-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL DEFAULT 'standard',
    "tax_category" TEXT NOT NULL,
    "image_url" TEXT,
    "custom_data" JSONB,
    "status" TEXT NOT NULL DEFAULT 'active',
    "import_meta" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prices" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "name" TEXT,
    "type" TEXT NOT NULL DEFAULT 'standard',
    "billing_cycle_interval" TEXT,
    "billing_cycle_frequency" INTEGER,
    "trial_period_interval" TEXT,
    "trial_period_frequency" INTEGER,
    "tax_mode" TEXT NOT NULL DEFAULT 'account_setting',
    "unit_price_amount" BIGINT NOT NULL,
    "unit_price_currency" TEXT NOT NULL,
    "unit_price_overrides" JSONB NOT NULL DEFAULT '[]',
    "quantity_minimum" INTEGER NOT NULL DEFAULT 1,
    "quantity_maximum" INTEGER NOT NULL DEFAULT 100,
    "status" TEXT NOT NULL DEFAULT 'active',
    "custom_data" JSONB,
    "import_meta" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "discount_groups" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "import_meta" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discount_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "discounts" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "description" TEXT NOT NULL,
    "enabled_for_checkout" BOOLEAN NOT NULL DEFAULT false,
    "code" TEXT,
    "type" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'standard',
    "amount" DECIMAL(20,2) NOT NULL,
    "currency_code" TEXT,
    "recur" BOOLEAN NOT NULL DEFAULT false,
    "maximum_recurring_intervals" INTEGER,
    "usage_limit" INTEGER,
    "restrict_to" TEXT[],
    "restricted" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMPTZ(6),
    "times_used" INTEGER NOT NULL DEFAULT 0,
    "discount_group_id" TEXT,
    "custom_data" JSONB,
    "import_meta" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "products_status_id_idx" ON "products"("status", "id");

-- CreateIndex
CREATE INDEX "prices_product_id_id_idx" ON "prices"("product_id", "id");

-- CreateIndex
CREATE INDEX "prices_status_id_idx" ON "prices"("status", "id");

-- CreateIndex
CREATE INDEX "discount_groups_status_id_idx" ON "discount_groups"("status", "id");

-- CreateIndex
CREATE INDEX "discounts_status_id_idx" ON "discounts"("status", "id");

-- CreateIndex
CREATE INDEX "discounts_discount_group_id_id_idx" ON "discounts"("discount_group_id", "id");

-- AddForeignKey
ALTER TABLE "prices" ADD CONSTRAINT "prices_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_discount_group_id_fkey" FOREIGN KEY ("discount_group_id") REFERENCES "discount_groups"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Discount codes are unique without regard to case. Written by hand: an expression index cannot
-- be declared in schema.prisma.
CREATE UNIQUE INDEX "discounts_code_key" ON "discounts" (lower("code")) WHERE "code" IS NOT NULL;
