import { signedInPermissions } from "@/lib/auth/signed-in-staff";
import { CustomerDetail } from "./customer-detail";

export const metadata = { title: "Customer" };

export default async function CustomerPage({ params }: { params: Promise<{ customer_id: string }> }) {
  const { customer_id } = await params;
  // Write buttons show only to staff whose role may use them (the API refuses the rest anyway).
  return <CustomerDetail customerId={customer_id} permissions={await signedInPermissions()} />;
}
