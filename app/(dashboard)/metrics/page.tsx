import { RevenueView } from "./revenue-view";

export const metadata = { title: "Metrics" };

export default function MetricsPage() {
  return <RevenueView />;
}
