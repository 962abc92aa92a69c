import Link from "next/link";
import type { Phrase } from "@/lib/dashboard/activity-words";

/** A phrase of lib/dashboard/activity-words.ts: its text, with links to what it names. */
export function PhraseText({ phrase }: { phrase: Phrase }) {
  return (
    <>
      {phrase.map((part, i) =>
        typeof part === "string" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a phrase's parts never move.
          <span key={i}>{part}</span>
        ) : part.href ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a phrase's parts never move.
          <Link key={i} href={part.href} className="font-medium text-brand-700 hover:underline">
            {part.text}
          </Link>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a phrase's parts never move.
          <span key={i} className="font-medium">
            {part.text}
          </span>
        ),
      )}
    </>
  );
}
