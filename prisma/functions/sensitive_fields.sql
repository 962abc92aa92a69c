-- Top-level fields of an entity that are sent to a destination only when it asks for
-- `include_sensitive_fields`: payment details, authenticated portal links and tax identifiers.
CREATE OR REPLACE FUNCTION sensitive_fields(event_type text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE split_part(event_type, '.', 1)
    WHEN 'transaction' THEN ARRAY['payments', 'checkout']
    WHEN 'subscription' THEN ARRAY['management_urls']
    WHEN 'business' THEN ARRAY['tax_identifier']
    WHEN 'adjustment' THEN ARRAY['payout_totals']
    ELSE ARRAY[]::text[]
  END
$$;
