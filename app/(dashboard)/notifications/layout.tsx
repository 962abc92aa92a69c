import { SubNav } from "@/components/sub-nav";

const SECTIONS = [
  { href: "/notifications/destinations", label: "Destinations" },
  { href: "/notifications/log", label: "Log" },
  { href: "/notifications/simulator", label: "Simulator" },
] as const;

/** The notifications area's sections as tabs above each of its pages. */
export default function NotificationsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl">
      <SubNav label="Notifications" items={SECTIONS} />
      {children}
    </div>
  );
}
