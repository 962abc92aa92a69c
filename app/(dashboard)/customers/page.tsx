import { CustomersView } from "./customers-view";

export const metadata = { title: "Customers" };

export default function CustomersPage() {
  return <CustomersView />;
}
