"use client";

import { useEffect, useId, useMemo, useRef } from "react";
import { Button } from "@/components/button";
import { CopyField } from "@/components/copy-button";
import type { PaymentLink } from "@/lib/dashboard/payment-links";
import { qrSvg } from "@/lib/qr/qr";

/** A link to hand out: its address to copy, a QR code to print or show, and a way to try it. */
export function LinkCard({ link, title, onDone }: { link: PaymentLink; title: string; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const svg = useMemo(() => qrSvg(link.url, `QR code of the payment link ${link.url}`), [link.url]);
  const qrHref = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mb-4 flex flex-wrap items-start gap-6 rounded-lg border border-emerald-300 bg-emerald-50 p-5 shadow-sm"
    >
      <div className="min-w-0 flex-1 basis-72">
        <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-base font-semibold text-emerald-900">
          {title}
        </h3>
        <div className="mt-3">
          <CopyField id={`${id}-url`} label="Payment link" value={link.url} copyLabel="Copy payment link" />
        </div>
        <p className="mt-3 text-sm text-slate-700">
          Send it by email or chat, put it on a button of your site, or print the QR code: whoever opens it enters an
          email and a country, then pays at the checkout.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={onDone}>
            Done
          </Button>
          <a
            href={link.url}
            target="_blank"
            rel="noopener"
            className="text-sm font-medium text-blue-700 underline hover:text-blue-900"
          >
            Open the link
          </a>
          <a
            href={qrHref}
            download={`${link.id}-qr.svg`}
            className="text-sm font-medium text-blue-700 underline hover:text-blue-900"
          >
            Download QR code
          </a>
        </div>
      </div>
      <div
        className="w-40 shrink-0 rounded-md bg-white p-2 ring-1 ring-slate-200"
        data-testid="payment-link-qr"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is our own encoder's output (lib/qr), its title escaped
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    </section>
  );
}
