import { DestinationsView } from "./destinations-view";

export const metadata = { title: "Destinations" };

export default function DestinationsPage() {
  return <DestinationsView />;
}
