import { LogView } from "./log-view";

export const metadata = { title: "Notification log" };

export default function LogPage() {
  return <LogView />;
}
