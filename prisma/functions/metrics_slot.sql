-- The quarter-hour of the UTC day `at` falls in.
CREATE OR REPLACE FUNCTION "metrics_slot"(at timestamptz) RETURNS smallint
LANGUAGE sql IMMUTABLE AS $$
  SELECT (extract(hour FROM at AT TIME ZONE 'UTC') * 4 + floor(extract(minute FROM at AT TIME ZONE 'UTC') / 15))::smallint
$$;
