/**
 * The audit log (ours, not the API family's): GET /api/audit-log's query and an entry's shape.
 * Client-safe: the dashboard's Audit log page builds its filters from these.
 */
import { z } from "zod";
import { dateTime, listQuery } from "./common.ts";

export const AUDIT_ACTOR_TYPES = ["user", "api_key"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const auditLogEntry = z.object({
  id: z.string(),
  occurred_at: z.string(),
  actor_type: z.enum(AUDIT_ACTOR_TYPES),
  actor_id: z.string().nullable(),
  actor_label: z.string().nullable(),
  action: z.string(),
  entity_id: z.string().nullable(),
  status: z.number().int(),
  request_id: z.string().nullable(),
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /**
   * What the change was, for saying it in words: fields of the answer (status, invoice_number,
   * amount and currency_code, name...), the body's field names (`fields`) and requested `status`,
   * and the names of the customer and business concerned as they were then. Null on older entries.
   */
  detail: z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullable(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntry>;

const text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/**
 * Newest first. `actor`: a user or key ID, or (with an @ or any other text) the email or key name
 * as recorded, exactly, case-insensitive. `action`: exactly ("POST /api/customers") or, ending
 * in `*`, by prefix ("POST /api/customers*").
 */
export const listAuditLogQuery = z.object({
  ...listQuery(["id"] as const, "desc"),
  actor: text(320).optional(),
  actor_type: z.enum(AUDIT_ACTOR_TYPES, { error: "must be user or api_key" }).optional(),
  entity_id: text(100).optional(),
  action: text(300).optional(),
  "occurred_at[GTE]": dateTime.optional(),
  "occurred_at[LT]": dateTime.optional(),
});
export type ListAuditLogQuery = z.infer<typeof listAuditLogQuery>;
