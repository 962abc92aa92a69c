-- DropIndex
DROP INDEX "events_entity_id_idx";

-- CreateIndex
CREATE INDEX "events_entity_id_id_idx" ON "events"("entity_id", "id");
