import { MetricsView } from "./metrics-view";

export const metadata = { title: "Metrics" };

export default function MetricsPage() {
  return <MetricsView />;
}
