import { LogView } from "./log-view";

export const metadata = { title: "Notification log" };

/** `?destination=ntfset_…` opens the log filtered to one destination (the link on its page). */
export default async function LogPage({
  searchParams,
}: {
  searchParams: Promise<{ destination?: string | string[] }>;
}) {
  const { destination } = await searchParams;
  const initial = typeof destination === "string" ? destination : "";
  return <LogView key={initial} initialDestination={initial} />;
}
