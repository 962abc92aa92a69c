import { PaymentLinksView } from "./payment-links-view";

export const metadata = { title: "Payment links" };

export default function PaymentLinksPage() {
  return <PaymentLinksView />;
}
