import { NewInvoice } from "./new-invoice";

export const metadata = { title: "New invoice" };

export default function NewInvoicePage() {
  return <NewInvoice />;
}
