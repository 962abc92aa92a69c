import { ComingSoon } from "@/components/coming-soon";

export const metadata = { title: "Metrics" };

export default function MetricsPage() {
  return <ComingSoon title="Metrics" description="Revenue charts and tables will be shown here." />;
}
