import { SimulatorView } from "./simulator-view";

export const metadata = { title: "Simulator" };

/** `?destination=ntfset_…` (a destination's "Send test event") chooses the destination first. */
export default async function SimulatorPage({ searchParams }: { searchParams: Promise<{ destination?: string }> }) {
  const { destination } = await searchParams;
  return <SimulatorView initialDestination={typeof destination === "string" ? destination : ""} />;
}
