-- AlterTable
ALTER TABLE "audit_log" ADD COLUMN     "detail" JSONB;
