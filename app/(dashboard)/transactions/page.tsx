import { TransactionsView } from "./transactions-view";

export const metadata = { title: "Transactions" };

export default function TransactionsPage() {
  return <TransactionsView />;
}
