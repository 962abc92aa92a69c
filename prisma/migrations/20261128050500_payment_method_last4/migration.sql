-- Written by hand (an expression index cannot be declared in schema.prisma).
-- GET /payment-methods?last4= (ours: the dashboard's search finds a customer by their card).
CREATE INDEX "payment_methods_card_last4_idx" ON "payment_methods" (("card" ->> 'last4'));
