/**
 * The audit log: who changed what, when and from where. The route wrapper (lib/http/route.ts)
 * records every successful state-changing request made by staff or an API key; sign-ins are
 * recorded by the sign-in path. Entries are kept AUDIT_RETENTION_DAYS (a daily purge job).
 */

import { type EntityTable, type JsonPage, listJson, Params, query, ts } from "../../db/sql.ts";
import { storableJson } from "../../db/storable.ts";
import { newId } from "../../ids.ts";
import type { AuditActorType, AuditLogEntry, ListAuditLogQuery } from "../../schemas/audit-log.ts";
import type { AuditDetail } from "./audit-detail.ts";

/** A year, as the issue asks. */
export const AUDIT_RETENTION_DAYS = 365;

export const AUDIT_LOG: EntityTable<AuditLogEntry> = {
  table: "audit_log",
  fields: [
    ["id", "t.id"],
    ["occurred_at", ts("t.occurred_at")],
    ["actor_type", "t.actor_type"],
    ["actor_id", "t.actor_id"],
    ["actor_label", "t.actor_label"],
    ["action", "t.action"],
    ["entity_id", "t.entity_id"],
    ["status", "t.status"],
    ["request_id", "t.request_id"],
    ["client_address", "t.client_address"],
    ["user_agent", "t.user_agent"],
    ["detail", "t.detail"],
  ],
};

export interface AuditRecord {
  actorType: AuditActorType;
  actorId: string | null;
  /** Looked up from the actor (a user's email, a key's name) when not given. */
  actorLabel?: string | null;
  action: string;
  entityId: string | null;
  status: number;
  requestId?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  /** What the change was (audit-detail.ts); the names it concerns are added here. */
  detail?: AuditDetail | null;
}

const cut = (value: string | null | undefined, max: number) => (value == null ? null : value.slice(0, max));

/**
 * One INSERT; the actor's label is read in the same statement. Never throws: a lost audit row is
 * logged, and the change it describes (already committed) stands.
 */
export async function recordAudit(entry: AuditRecord): Promise<void> {
  try {
    await query(
      `INSERT INTO audit_log (id, actor_type, actor_id, actor_label, action, entity_id, status, request_id,
                              client_address, user_agent, detail)
       VALUES ($1, $2, $3,
               coalesce($4, CASE $2 WHEN 'user' THEN (SELECT email FROM users WHERE id = $3)
                                    ELSE (SELECT name FROM api_keys WHERE id = $3) END),
               $5, $6, $7, $8, $9, $10,
               -- The names the words need, as they are now (a customer renamed later keeps this).
               $11::jsonb || jsonb_strip_nulls(jsonb_build_object(
                 'customer_name', (SELECT coalesce(nullif(name, ''), email) FROM customers
                                    WHERE id = coalesce($11::jsonb->>'customer_id',
                                                        (SELECT customer_id FROM transactions WHERE id = $11::jsonb->>'transaction_id'))),
                 'business_name', (SELECT name FROM businesses WHERE id = $11::jsonb->>'business_id'),
                 'invoice_number', coalesce($11::jsonb->>'invoice_number',
                                            (SELECT invoice_number FROM transactions WHERE id = $11::jsonb->>'transaction_id')))))`,
      [
        newId("aud"),
        entry.actorType,
        entry.actorId,
        cut(entry.actorLabel, 320),
        cut(entry.action, 300),
        cut(entry.entityId, 100),
        entry.status,
        cut(entry.requestId, 100),
        cut(entry.clientAddress, 100),
        cut(entry.userAgent, 500),
        entry.detail ? storableJson(entry.detail) : null,
      ],
    );
  } catch (error) {
    console.error(`[audit] could not record ${entry.action}: ${(error as Error).message}`);
  }
}

const ENTITY_ID = /^[a-z]+_[a-z0-9]{26}$/;

/** The entity a request is about: the last ID in its path (`/api/customers/ctm_…/addresses/add_…`). */
export function pathEntityId(pathname: string): string | null {
  return (
    pathname
      .split("/")
      .filter(Boolean)
      .findLast((segment) => ENTITY_ID.test(segment)) ?? null
  );
}

/** The ID of the entity an answer carries (its JSON text starts with it: fields are in spec order). */
export function answerEntityId(json: string): string | null {
  return /^\{"id":"([a-z]+_[a-z0-9]{26})"/.exec(json)?.[1] ?? null;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listAuditLog(options: ListAuditLogQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (options.actor) {
    const actor = params.add(options.actor);
    filters.push(ENTITY_ID.test(options.actor) ? `t.actor_id = ${actor}` : `lower(t.actor_label) = lower(${actor})`);
  }
  if (options.actor_type) filters.push(`t.actor_type = ${params.add(options.actor_type)}`);
  if (options.entity_id) filters.push(`t.entity_id = ${params.add(options.entity_id)}`);
  if (options.action) {
    if (options.action.endsWith("*")) {
      filters.push(`t.action LIKE ${params.add(`${escapeLike(options.action.slice(0, -1))}%`)}`);
    } else filters.push(`t.action = ${params.add(options.action)}`);
  }
  if (options["occurred_at[GTE]"]) filters.push(`t.occurred_at >= ${params.add(options["occurred_at[GTE]"])}`);
  if (options["occurred_at[LT]"]) filters.push(`t.occurred_at < ${params.add(options["occurred_at[LT]"])}`);
  return listJson(AUDIT_LOG, {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
}

/** Deletes entries older than the retention; returns how many. */
export async function purgeAuditLog(retentionDays = AUDIT_RETENTION_DAYS): Promise<number> {
  const rows = await query<{ n: number }>(
    `WITH gone AS (DELETE FROM audit_log WHERE occurred_at < now() - $1 * interval '1 day' RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [retentionDays],
  );
  return rows[0]?.n ?? 0;
}

/**
 * A staff sign-in, succeeded or failed. A failure names the account only when one has that email
 * (the emails people mistype are not kept; the throttling of lib/auth/sign-in-limits.ts keeps none).
 */
export async function recordSignIn(
  email: string,
  user: { id: string; email: string } | null,
  from: { clientAddress: string; userAgent: string | null },
): Promise<void> {
  try {
    await query(
      `INSERT INTO audit_log (id, actor_type, actor_id, actor_label, action, entity_id, status, client_address, user_agent)
       SELECT $1, 'user', u.id, u.email, $3, u.id, $4, $5, $6
       FROM (SELECT $2::text AS email) e LEFT JOIN users u ON u.email = e.email`,
      [
        newId("aud"),
        (user?.email ?? email).trim().toLowerCase().slice(0, 320),
        user ? "sign_in" : "sign_in_failed",
        user ? 200 : 401,
        from.clientAddress.slice(0, 100),
        from.userAgent?.slice(0, 500) ?? null,
      ],
    );
  } catch (error) {
    console.error(`[audit] could not record a sign-in: ${(error as Error).message}`);
  }
}
