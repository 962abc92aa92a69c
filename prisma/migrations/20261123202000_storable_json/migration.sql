-- Repairs json values stored before text was made storable (issue #13). A json column accepts
-- the escape of an unpaired UTF-16 surrogate ("\udc00") or of NUL ("\u0000"), which JSON.stringify
-- wrote for such text (a card name typed at the public checkout), but every later read of the
-- value as jsonb then fails: the event fan-out, so every later write of the row with an event.
-- Such escapes become "\ufffd" (NUL's are dropped), as lib/db/storable.ts now does on the way in.
-- jsonb and text columns cannot hold them. No schema change.

CREATE FUNCTION "storable_json_repair"(input text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  -- The text cut into tokens, each kept or replaced: an escaped backslash (so that "\\udc00",
  -- typed text, is kept), a surrogate pair written as escapes (kept), a lone surrogate's escape, a
  -- NUL's escape, a run without backslashes, any other backslash. Alternatives match the longest.
  SELECT coalesce(string_agg(
           CASE WHEN m[1] ~* '^\\u0000$' THEN ''
                WHEN m[1] ~* '^\\ud[89a-f][0-9a-f]{2}$' THEN '\ufffd'
                ELSE m[1] END,
           '' ORDER BY n), '')
  FROM regexp_matches(
         input,
         '(\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\u0000|[^\\]+|\\)',
         'g') WITH ORDINALITY AS x(m, n)
$$;

-- strpos first: a cheap test that skips nearly every row before the regular expression.
UPDATE "transactions" SET "payments" = storable_json_repair("payments"::text)::json
  WHERE strpos("payments"::text, '\u') > 0 AND "payments"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transactions" SET "details" = storable_json_repair("details"::text)::json
  WHERE strpos("details"::text, '\u') > 0 AND "details"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transactions" SET "billing_details" = storable_json_repair("billing_details"::text)::json
  WHERE strpos("billing_details"::text, '\u') > 0 AND "billing_details"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transactions" SET "checkout" = storable_json_repair("checkout"::text)::json
  WHERE strpos("checkout"::text, '\u') > 0 AND "checkout"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transactions" SET "customer_snapshot" = storable_json_repair("customer_snapshot"::text)::json
  WHERE strpos("customer_snapshot"::text, '\u') > 0 AND "customer_snapshot"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transactions" SET "address_snapshot" = storable_json_repair("address_snapshot"::text)::json
  WHERE strpos("address_snapshot"::text, '\u') > 0 AND "address_snapshot"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transactions" SET "business_snapshot" = storable_json_repair("business_snapshot"::text)::json
  WHERE strpos("business_snapshot"::text, '\u') > 0 AND "business_snapshot"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transaction_items" SET "price" = storable_json_repair("price"::text)::json
  WHERE strpos("price"::text, '\u') > 0 AND "price"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "transaction_items" SET "product" = storable_json_repair("product"::text)::json
  WHERE strpos("product"::text, '\u') > 0 AND "product"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "adjustments" SET "tax_rates_used" = storable_json_repair("tax_rates_used"::text)::json
  WHERE strpos("tax_rates_used"::text, '\u') > 0 AND "tax_rates_used"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "events" SET "data" = storable_json_repair("data"::text)::json
  WHERE strpos("data"::text, '\u') > 0 AND "data"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "notifications" SET "payload" = storable_json_repair("payload"::text)::json
  WHERE strpos("payload"::text, '\u') > 0 AND "payload"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "simulations" SET "payload" = storable_json_repair("payload"::text)::json
  WHERE strpos("payload"::text, '\u') > 0 AND "payload"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "simulations" SET "config" = storable_json_repair("config"::text)::json
  WHERE strpos("config"::text, '\u') > 0 AND "config"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "simulation_events" SET "payload" = storable_json_repair("payload"::text)::json
  WHERE strpos("payload"::text, '\u') > 0 AND "payload"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "simulation_events" SET "request" = storable_json_repair("request"::text)::json
  WHERE strpos("request"::text, '\u') > 0 AND "request"::text ~* '\\u(d[89a-f]|0000)';
UPDATE "simulation_events" SET "response" = storable_json_repair("response"::text)::json
  WHERE strpos("response"::text, '\u') > 0 AND "response"::text ~* '\\u(d[89a-f]|0000)';

DROP FUNCTION "storable_json_repair"(text);
