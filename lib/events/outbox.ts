/**
 * The transactional outbox: `emit` inserts the event in the caller's database transaction, so
 * an event exists exactly when the change it describes committed. Delivery reads the table.
 */
import type { Tx } from "../db.ts";
import { newId } from "../ids.ts";
import { isEventType } from "./catalogue.ts";

export async function emit(tx: Tx, eventType: string, entity: { id: string }): Promise<string> {
  if (!isEventType(eventType)) throw new Error(`unknown event type ${eventType}`);
  const id = newId("evt");
  await tx.event.create({
    data: { id, eventType, entityId: entity.id, data: entity as object },
  });
  return id;
}
