-- CreateTable
CREATE TABLE "reports" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "rows" INTEGER,
    "filters" JSON NOT NULL,
    "expires_at" TIMESTAMPTZ(6),
    "byte_size" BIGINT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "report_chunks" (
    "report_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "report_chunks_pkey" PRIMARY KEY ("report_id","seq")
);

-- CreateIndex
CREATE INDEX "reports_status_id_idx" ON "reports"("status", "id");

-- CreateIndex
CREATE INDEX "reports_expires_at_idx" ON "reports"("expires_at");

-- AddForeignKey
ALTER TABLE "report_chunks" ADD CONSTRAINT "report_chunks_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The chunks are gzip already: stored out of line without PostgreSQL compressing them again.
ALTER TABLE "report_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
