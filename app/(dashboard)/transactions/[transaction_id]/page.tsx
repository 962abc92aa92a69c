import { TransactionDetail } from "./transaction-detail";

export const metadata = { title: "Transaction" };

export default async function TransactionPage({ params }: { params: Promise<{ transaction_id: string }> }) {
  const { transaction_id } = await params;
  return <TransactionDetail transactionId={transaction_id} />;
}
