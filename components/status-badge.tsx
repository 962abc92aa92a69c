const TONES = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  blue: "bg-brand-50 text-brand-700 ring-brand-600/20",
} as const;

export type BadgeTone = keyof typeof TONES;

/** The colour of each status the API family uses; anything else is neutral. */
const STATUS_TONES: Record<string, BadgeTone> = {
  active: "green",
  completed: "green",
  paid: "green",
  delivered: "green",
  success: "green",
  archived: "slate",
  draft: "slate",
  canceled: "slate",
  inactive: "slate",
  not_attempted: "slate",
  aborted: "slate",
  revoked: "red",
  failed: "red",
  past_due: "red",
  expired: "amber",
  paused: "amber",
  needs_retry: "amber",
  pending: "amber",
  ready: "blue",
  billed: "blue",
  trialing: "blue",
};

export function StatusBadge({ status, tone }: { status: string; tone?: BadgeTone }) {
  const classes = TONES[tone ?? STATUS_TONES[status] ?? "slate"];
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${classes}`}
    >
      {status.replace(/_/g, " ")}
    </span>
  );
}
