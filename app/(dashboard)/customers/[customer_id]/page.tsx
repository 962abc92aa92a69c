import { CustomerDetail } from "./customer-detail";

export const metadata = { title: "Customer" };

export default async function CustomerPage({ params }: { params: Promise<{ customer_id: string }> }) {
  const { customer_id } = await params;
  return <CustomerDetail customerId={customer_id} />;
}
