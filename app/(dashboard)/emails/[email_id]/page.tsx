import { EmailDetail } from "./email-detail";

export const metadata = { title: "Email" };

export default async function EmailPage({ params }: { params: Promise<{ email_id: string }> }) {
  const { email_id } = await params;
  return <EmailDetail emailId={email_id} />;
}
