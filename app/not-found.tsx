import Link from "next/link";

export const metadata = { title: "Page not found" };

/** Every unknown page: a main landmark, what happened, and a way back (Next's default page has neither). */
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-slate-600">404</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">Page not found</h1>
        <p className="mt-2 text-slate-600">The address may be mistyped, or the page may have moved.</p>
        <Link
          href="/"
          className="mt-6 inline-block rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
        >
          Go to the dashboard
        </Link>
      </div>
    </main>
  );
}
