-- Written by hand (compression cannot be declared in schema.prisma).
--
-- The JSON the data path writes most — every event's snapshot, every webhook notification's
-- payload, a transaction's details and payments — is compressed with lz4 instead of PostgreSQL's
-- default pglz: a renewal writes about fourteen such values, and lz4 compresses them in about half
-- the CPU time (measured on 3 KB transaction snapshots: ~16 µs against ~33 µs each) and reads them
-- back faster. Only new values are compressed the new way; old ones stay readable as they are.
-- A server built without lz4 answers feature_not_supported: the columns then keep pglz.
DO $$
BEGIN
  ALTER TABLE "events" ALTER COLUMN "data" SET COMPRESSION lz4;
  ALTER TABLE "notifications" ALTER COLUMN "payload" SET COMPRESSION lz4;
  ALTER TABLE "transactions" ALTER COLUMN "details" SET COMPRESSION lz4;
  ALTER TABLE "transactions" ALTER COLUMN "payments" SET COMPRESSION lz4;
  ALTER TABLE "processor_events" ALTER COLUMN "payload" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available in this PostgreSQL build: JSON columns keep pglz';
END $$;
