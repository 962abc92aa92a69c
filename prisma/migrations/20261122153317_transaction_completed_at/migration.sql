-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "completed_at" TIMESTAMPTZ(6);
