-- Credit balances (GET /customers/{id}/credit-balances): a subscription transaction paid partly
-- from the customer's credit balance (details.totals.credit > 0) reserved that credit when it was billed
-- (lib/services/subscriptions/billing.ts). When the transaction completes, the reserved credit is
-- used; when it is canceled, it becomes available again. Kept here, in the statement that moves
-- the transaction, so that no way of completing or canceling one (checkout, saved-card charge,
-- dunning retry, mark paid, pause, PATCH) can forget it.
CREATE OR REPLACE FUNCTION transactions_settle_credit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  credit BIGINT;
BEGIN
  IF NEW.status IN ('completed', 'canceled') AND OLD.status IS DISTINCT FROM NEW.status
     AND OLD.status NOT IN ('completed', 'canceled') AND NEW.customer_id IS NOT NULL THEN
    credit := coalesce((NEW.details->'totals'->>'credit')::BIGINT, 0);
    IF credit > 0 THEN
      UPDATE "credit_balances"
         SET reserved = reserved - credit,
             used = used + CASE WHEN NEW.status = 'completed' THEN credit ELSE 0 END,
             available = available + CASE WHEN NEW.status = 'canceled' THEN credit ELSE 0 END,
             updated_at = now()
       WHERE customer_id = NEW.customer_id AND currency_code = NEW.currency_code;
    END IF;
  END IF;
  RETURN NEW;
END $$;
