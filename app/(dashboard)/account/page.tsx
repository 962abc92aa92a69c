import { AccountView } from "./account-view";

export const metadata = { title: "Your account" };

export default function AccountPage() {
  return <AccountView />;
}
