import { redirect } from "next/navigation";
import type { SearchParams } from "./access";

/** /portal: the overview (a token in the link goes along). */
export default async function PortalIndex({ searchParams }: { searchParams: SearchParams }) {
  const token = (await searchParams).token;
  redirect(typeof token === "string" ? `/portal/overview?${new URLSearchParams({ token })}` : "/portal/overview");
}
