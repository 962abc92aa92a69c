import { signedInPermissions } from "@/lib/auth/signed-in-staff";
import { config } from "@/lib/config";
import { SubscriptionDetail } from "./subscription-detail";

export const metadata = { title: "Subscription" };

export default async function SubscriptionPage({ params }: { params: Promise<{ subscription_id: string }> }) {
  const { subscription_id } = await params;
  // Write buttons show only to staff whose role may use them (the API refuses the rest anyway);
  // the test clock only in the sandbox.
  return (
    <SubscriptionDetail
      subscriptionId={subscription_id}
      permissions={await signedInPermissions()}
      sandbox={config.environment === "sandbox"}
    />
  );
}
