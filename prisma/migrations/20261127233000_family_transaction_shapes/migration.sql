-- Written by hand: a data migration, nothing in schema.prisma changes.
--
-- Transactions and their events written before the family's shapes were followed (issue 22) are
-- brought to them, so that a deployment upgraded with old rows answers what the family's SDKs read:
-- - details.adjusted_payout_totals: null until the transaction has an approved adjustment, then
--   the object with exchange_rate (the payout's). Stored on the transaction (lib/services/adjustments.ts
--   rewrites it on each approved adjustment) and in each event's snapshot of it.
-- - payments[] in event snapshots: payment_method_id (the saved method's paymtd_ ID that
--   stored_payment_method_id holds, else null) and method_details.underlying_details (null). The
--   transactions API renders these from any stored attempt (lib/db/entities/transaction.ts); an
--   event's payload is the snapshot stored with it, so it is mended here.
-- Key order is kept (json, not jsonb): a key that is new is appended to its object.

-- `object` with `key` set to `value`: in place when the key is there, appended otherwise.
CREATE FUNCTION pg_temp.json_with(object json, key text, value json) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(json_object_agg(k, v ORDER BY n), '{}'::json)
  FROM (
    SELECT e.key AS k, CASE WHEN e.key = json_with.key THEN json_with.value ELSE e.value END AS v, e.n
    FROM json_each(object) WITH ORDINALITY AS e(key, value, n)
    UNION ALL
    SELECT json_with.key, json_with.value, 1e9
    WHERE NOT EXISTS (SELECT 1 FROM json_each(object) AS e WHERE e.key = json_with.key)
  ) AS pairs
$$;

-- The adjusted payout totals a transaction (`id`) with these `details` has.
CREATE FUNCTION pg_temp.adjusted_payout(id text, details json) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN json_typeof(details->'adjusted_payout_totals') IS DISTINCT FROM 'object' THEN details->'adjusted_payout_totals'
    WHEN NOT EXISTS (SELECT 1 FROM adjustments a WHERE a.transaction_id = id AND a.status = 'approved') THEN 'null'::json
    WHEN details->'adjusted_payout_totals'->'exchange_rate' IS NOT NULL THEN details->'adjusted_payout_totals'
    ELSE pg_temp.json_with(details->'adjusted_payout_totals', 'exchange_rate',
      to_json(coalesce(details->'payout_totals'->>'exchange_rate', '1')))
  END
$$;

-- A payment attempt with the fields the family reads.
CREATE FUNCTION pg_temp.family_payment(payment json) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.json_with(
    CASE WHEN json_typeof(payment->'method_details') = 'object' AND payment->'method_details'->'underlying_details' IS NULL
      THEN pg_temp.json_with(payment, 'method_details', pg_temp.json_with(payment->'method_details', 'underlying_details', 'null'::json))
      ELSE payment END,
    'payment_method_id',
    coalesce(payment->'payment_method_id',
      CASE WHEN left(payment->>'stored_payment_method_id', 7) = 'paymtd_' THEN payment->'stored_payment_method_id' ELSE 'null'::json END))
$$;

UPDATE transactions t
SET details = pg_temp.json_with(t.details, 'adjusted_payout_totals', pg_temp.adjusted_payout(t.id, t.details))
WHERE json_typeof(t.details->'adjusted_payout_totals') = 'object'
  AND (t.details->'adjusted_payout_totals'->'exchange_rate' IS NULL
    OR NOT EXISTS (SELECT 1 FROM adjustments a WHERE a.transaction_id = t.id AND a.status = 'approved'));

UPDATE events e
SET data = pg_temp.json_with(
  CASE WHEN json_typeof(e.data->'details') = 'object'
    THEN pg_temp.json_with(e.data, 'details',
      pg_temp.json_with(e.data->'details', 'adjusted_payout_totals', pg_temp.adjusted_payout(e.entity_id, e.data->'details')))
    ELSE e.data END,
  'payments',
  CASE WHEN json_typeof(e.data->'payments') = 'array'
    THEN (SELECT coalesce(json_agg(pg_temp.family_payment(p.value) ORDER BY p.n), '[]'::json)
          FROM json_array_elements(e.data->'payments') WITH ORDINALITY AS p(value, n))
    ELSE e.data->'payments' END)
WHERE e.event_type LIKE 'transaction.%' AND json_typeof(e.data) = 'object' AND e.data->'payments' IS NOT NULL;
