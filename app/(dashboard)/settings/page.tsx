import { SettingsView } from "./settings-view";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return <SettingsView />;
}
