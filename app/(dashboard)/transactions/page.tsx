import { ComingSoon } from "@/components/coming-soon";

export const metadata = { title: "Transactions" };

export default function TransactionsPage() {
  return (
    <ComingSoon
      title="Transactions"
      description="Transactions, invoices and adjustments will be listed and managed here."
    />
  );
}
