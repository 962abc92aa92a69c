import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Billing", template: "%s · Billing" },
  description: "Subscription and one-time billing: API and merchant dashboard.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
