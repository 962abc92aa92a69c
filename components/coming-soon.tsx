export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="text-2xl font-semibold">
        {title}
      </h1>
      <div className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-slate-600">
        <p className="font-medium text-slate-900">Not built yet.</p>
        <p className="mt-1">{description}</p>
      </div>
    </section>
  );
}
