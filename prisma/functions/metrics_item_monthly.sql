-- One item's monthly amount (unnormalised by rounding), in one place for the triggers
-- (subscription_mrr_amount) and the rebuild (set-based). The formula and the decisions behind it:
-- prisma/migrations/20261124030000_subscription_metrics/migration.sql.
CREATE OR REPLACE FUNCTION "metrics_item_monthly"(price json, quantity integer, currency text, country text,
                                       cycle_interval text, cycle_frequency integer) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT "metrics_minor"(coalesce(
           (SELECT o -> 'unit_price' ->> 'amount'
              FROM json_array_elements(CASE WHEN json_typeof(price -> 'unit_price_overrides') = 'array'
                                            THEN price -> 'unit_price_overrides' END) o
             WHERE o -> 'unit_price' ->> 'currency_code' = currency
               AND json_typeof(o -> 'country_codes') = 'array'
               AND EXISTS (SELECT 1 FROM json_array_elements_text(o -> 'country_codes') c
                            WHERE upper(c) = upper(country))
             LIMIT 1),
           price -> 'unit_price' ->> 'amount'))
         * quantity
         * "metrics_monthly_factor"(coalesce(price -> 'billing_cycle' ->> 'interval', cycle_interval),
             coalesce(CASE WHEN (price -> 'billing_cycle' ->> 'frequency') ~ '^[0-9]{1,6}$'
                           THEN (price -> 'billing_cycle' ->> 'frequency')::integer END, cycle_frequency))
$$;
