-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "checkout_success_url" TEXT,
ADD COLUMN     "payment_link_id" TEXT;

-- CreateTable
CREATE TABLE "payment_links" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "items" JSONB NOT NULL,
    "success_url" TEXT,
    "reusable" BOOLEAN NOT NULL DEFAULT true,
    "transaction_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_links_status_id_idx" ON "payment_links"("status", "id");

-- CreateIndex
CREATE INDEX "payment_links_created_at_id_idx" ON "payment_links"("created_at", "id");
