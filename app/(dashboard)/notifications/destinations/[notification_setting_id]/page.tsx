import { DestinationDetail } from "./destination-detail";

export const metadata = { title: "Destination" };

export default async function DestinationPage({ params }: { params: Promise<{ notification_setting_id: string }> }) {
  const { notification_setting_id } = await params;
  return <DestinationDetail destinationId={notification_setting_id} />;
}
