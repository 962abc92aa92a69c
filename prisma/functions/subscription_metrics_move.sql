-- Appends a movement of a subscription's MRR and adds it to its slot's rollup row.
CREATE OR REPLACE FUNCTION "subscription_metrics_move"(sub_id text, moved_at timestamptz, currency text, movement text,
                                            mrr_before bigint, mrr_after bigint, active_before boolean,
                                            active_after boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  d date := (moved_at AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO "subscription_mrr_movements" ("subscription_id", "at", "day", "currency_code", "movement",
    "mrr_before", "mrr_after", "active_before", "active_after")
  VALUES (sub_id, moved_at, d, currency, movement, mrr_before, mrr_after, active_before, active_after);
  PERFORM "subscription_metrics_add"(d, "metrics_slot"(moved_at), currency, movement, mrr_before, mrr_after);
END
$$;
