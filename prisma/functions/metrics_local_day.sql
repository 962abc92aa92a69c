-- The day, in zone `zone`, of the slot `slot` of UTC day `day` (its start).
CREATE OR REPLACE FUNCTION "metrics_local_day"(day date, slot smallint, zone text) RETURNS date
LANGUAGE sql STABLE AS $$
  SELECT (((day + slot * interval '15 minutes') AT TIME ZONE 'UTC') AT TIME ZONE zone)::date
$$;
