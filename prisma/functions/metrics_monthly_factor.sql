-- Months per billing period of `frequency` x `interval`, inverted: the factor from one period's
-- amount to a month's (the decisions in prisma/migrations/20261124030000_subscription_metrics/migration.sql).
-- Unknown intervals count nothing.
CREATE OR REPLACE FUNCTION "metrics_monthly_factor"(interval_name text, frequency integer) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN frequency IS NULL OR frequency <= 0 THEN 0
              WHEN interval_name = 'month' THEN 1::numeric / frequency
              WHEN interval_name = 'year' THEN 1::numeric / (12 * frequency)
              WHEN interval_name = 'week' THEN 365::numeric / (84 * frequency)
              WHEN interval_name = 'day' THEN 365::numeric / (12 * frequency)
              ELSE 0 END
$$;
