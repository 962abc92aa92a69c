-- CreateTable
CREATE TABLE "customer_portal_sessions" (
    "id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "subscription_ids" TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "customer_portal_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customer_portal_sessions_customer_id_id_idx" ON "customer_portal_sessions"("customer_id", "id");
