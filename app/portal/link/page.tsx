import { AccessProblem, type SearchParams } from "../access";

export const metadata = { title: "Link problem" };

/** Where /portal/session sends a link that does not hold: why, in words. */
export default async function LinkProblemPage({ searchParams }: { searchParams: SearchParams }) {
  const reason = (await searchParams).reason;
  return <AccessProblem reason={reason === "expired" ? "expired" : reason === "missing" ? "missing" : "invalid"} />;
}
