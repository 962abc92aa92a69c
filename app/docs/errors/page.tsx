import Link from "next/link";
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "@/lib/errors";

export const metadata = { title: "API errors" };

export default function ErrorsIndexPage() {
  const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-2xl font-semibold">API errors</h1>
      <table className="mt-6 w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="py-2 pr-4">Code</th>
            <th className="py-2 pr-4">Status</th>
            <th className="py-2">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((code) => (
            <tr key={code} className="border-b border-slate-100 align-top">
              <td className="py-2 pr-4 font-mono">
                <Link href={`/docs/errors/${code}`} className="text-brand-600 hover:underline">
                  {code}
                </Link>
              </td>
              <td className="py-2 pr-4">{ERROR_STATUS[code]}</td>
              <td className="py-2">{ERROR_DESCRIPTIONS[code]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
