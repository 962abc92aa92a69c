import Link from "next/link";
import { notFound } from "next/navigation";
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "@/lib/errors";

export default async function ErrorDocPage({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  if (!(code in ERROR_STATUS)) notFound();
  const known = code as ErrorCode;
  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <p className="text-sm text-slate-500">
        <Link href="/docs/errors" className="hover:underline">
          API errors
        </Link>
      </p>
      <h1 className="mt-2 font-mono text-2xl font-semibold">{known}</h1>
      <p className="mt-1 text-sm text-slate-600">HTTP status {ERROR_STATUS[known]}</p>
      <p className="mt-6 leading-relaxed">{ERROR_DESCRIPTIONS[known]}</p>
      <p className="mt-6 text-sm text-slate-600">
        Every error response has <code>error.type</code>, <code>error.code</code>, <code>error.detail</code>,{" "}
        <code>error.documentation_url</code> and <code>meta.request_id</code>; validation errors add{" "}
        <code>error.errors</code>, a list of <code>field</code> and <code>message</code>.
      </p>
    </main>
  );
}
