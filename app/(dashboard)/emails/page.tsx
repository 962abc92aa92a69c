import { EmailsView } from "./emails-view";

export const metadata = { title: "Emails" };

export default function EmailsPage() {
  return <EmailsView />;
}
