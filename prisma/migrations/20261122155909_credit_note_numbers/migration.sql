-- AlterTable
ALTER TABLE "adjustments" ADD COLUMN     "credit_note_number" TEXT;

-- CreateTable
CREATE TABLE "credit_note_number_counters" (
    "merchant_id" TEXT NOT NULL,
    "last_number" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "credit_note_number_counters_pkey" PRIMARY KEY ("merchant_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "adjustments_credit_note_number_key" ON "adjustments"("credit_note_number");

-- Hand-written: the default merchant's counter, and numbers for the refunds and credits approved
-- before credit notes were numbered (in the order they were created, with the default prefix).
WITH numbered AS (
    SELECT id, row_number() OVER (ORDER BY created_at, id) AS n
      FROM "adjustments"
     WHERE status = 'approved' AND action IN ('refund', 'credit')
)
UPDATE "adjustments" a
   SET credit_note_number = 'CN-' || lpad(numbered.n::text, 6, '0')
  FROM numbered
 WHERE a.id = numbered.id;

INSERT INTO "credit_note_number_counters" ("merchant_id", "last_number")
SELECT 'default', count(*) FROM "adjustments" WHERE credit_note_number IS NOT NULL;
