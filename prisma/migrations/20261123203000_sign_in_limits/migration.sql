-- CreateTable
CREATE TABLE "sign_in_limits" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "window_started_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "blocked_until" TIMESTAMPTZ(6),
    "succeeded_at" TIMESTAMPTZ(6),
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "sign_in_limits_updated_at_idx" ON "sign_in_limits"("updated_at");
