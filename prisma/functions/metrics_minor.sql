-- A decimal string of minor units as numeric; anything else (never stored) as 0, so that a bad
-- snapshot can never fail the business change that carries it.
CREATE OR REPLACE FUNCTION "metrics_minor"(value text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value ~ '^-?[0-9]{1,18}$' THEN value::numeric ELSE 0 END
$$;
