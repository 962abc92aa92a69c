-- AlterTable
ALTER TABLE "adjustments" ADD COLUMN     "chargeback_fee" BIGINT NOT NULL DEFAULT 0;
