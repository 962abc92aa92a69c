import { z } from "zod";
import { route } from "@/lib/http/route";
import { attemptsOfTransaction } from "@/lib/payments/attempts";
import { paymentAttemptSchema } from "@/lib/schemas/payment-attempt";
import { transactionParams } from "@/lib/schemas/transaction";

/** An extension of ours: the transaction's attempts at the payment processor (not paginated: at most 200). */
export const GET = route(
  {
    summary: "List a transaction's attempts at the payment processor, newest first.",
    response: z.array(paymentAttemptSchema),
    permission: "transaction.read",
    params: transactionParams,
  },
  ({ input }) => attemptsOfTransaction(input.params.transaction_id),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
