-- The subscription's MRR from its items now (whatever its status), minor units of `currency`,
-- rounded once. PL/pgSQL rather than SQL so that its plan is prepared once per session.
CREATE OR REPLACE FUNCTION "subscription_mrr_amount"(sub_id text, currency text, country text, cycle_interval text,
                                          cycle_frequency integer) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(round(sum("metrics_item_monthly"(i."price", i."quantity", currency, country, cycle_interval,
                                                     cycle_frequency))), 0)::bigint
      FROM "subscription_items" i
     WHERE i."subscription_id" = sub_id AND i."recurring");
END
$$;
