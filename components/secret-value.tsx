"use client";

import { useId, useState } from "react";
import { Button } from "./button";
import { CopyButton } from "./copy-button";

const MASK = "•".repeat(32);

/**
 * A secret shown masked until Reveal is pressed (and masked again with Hide), with a Copy button
 * that copies it either way. While masked, the secret is not in the page's text at all.
 */
export function SecretValue({
  value,
  label,
}: {
  value: string;
  /** Lower case, as in the buttons' names: "endpoint secret key". */
  label: string;
}) {
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <span className="flex flex-wrap items-center gap-2">
      <code
        id={id}
        className="min-w-0 rounded-md border border-slate-200 bg-slate-50 px-2.5 py-1.5 font-mono text-xs break-all text-slate-900"
      >
        {shown ? (
          value
        ) : (
          <>
            <span aria-hidden="true">{MASK}</span>
            <span className="sr-only">Hidden</span>
          </>
        )}
      </code>
      <Button variant="secondary" size="sm" aria-controls={id} onClick={() => setShown((s) => !s)}>
        {shown ? "Hide" : "Reveal"}
        <span className="sr-only"> {label}</span>
      </Button>
      <CopyButton value={value} label={`Copy ${label}`} />
    </span>
  );
}
