-- A transaction's earnings (net of tax and fees: `details.totals.earnings`, minor units) as a
-- bigint. The payments path fills it in the same UPDATE that sets the status `completed`; a row
-- completed without it (not expected) counts with 0 rather than failing the payment.
CREATE OR REPLACE FUNCTION "transaction_earnings"(details json) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN (details -> 'totals' ->> 'earnings') ~ '^-?[0-9]{1,18}$'
              THEN (details -> 'totals' ->> 'earnings')::bigint ELSE 0 END
$$;
