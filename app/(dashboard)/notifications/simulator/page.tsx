import { SimulatorView } from "./simulator-view";

export const metadata = { title: "Simulator" };

export default function SimulatorPage() {
  return <SimulatorView />;
}
