"use client";

import { useState } from "react";

const SIZES = { sm: "h-9 w-9", lg: "h-40 w-40" } as const;

/**
 * A product's image from its `image_url`, hosted by the merchant (the service never stores it).
 * A URL that fails to load, or none, shows a neutral placeholder instead of a broken image.
 */
export function ProductImage({
  url,
  alt,
  size = "sm",
}: {
  url: string | null | undefined;
  /** Empty when the image only decorates a row that names the product already. */
  alt: string;
  size?: keyof typeof SIZES;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const box = `${SIZES[size]} shrink-0 rounded-md border border-slate-200 bg-slate-50`;
  if (!url || failed === url) {
    const reason = url ? "The image could not be loaded" : "No image";
    const icon = (
      <svg
        viewBox="0 0 20 20"
        fill="currentColor"
        aria-hidden="true"
        className={size === "lg" ? "h-10 w-10" : "h-4 w-4"}
      >
        <path
          fillRule="evenodd"
          d="M1 5.25A2.25 2.25 0 0 1 3.25 3h13.5A2.25 2.25 0 0 1 19 5.25v9.5A2.25 2.25 0 0 1 16.75 17H3.25A2.25 2.25 0 0 1 1 14.75v-9.5Zm1.5 5.81v3.69c0 .41.34.75.75.75h13.5a.75.75 0 0 0 .75-.75v-2.69l-2.22-2.22a.75.75 0 0 0-1.06 0l-1.91 1.9.47.47a.75.75 0 1 1-1.06 1.06L6.53 8.09a.75.75 0 0 0-1.06 0l-2.97 2.97ZM12 7a1 1 0 1 1-2 0 1 1 0 0 1 2 0Z"
          clipRule="evenodd"
        />
      </svg>
    );
    const placeholder = `${box} flex flex-col items-center justify-center gap-1 text-slate-500`;
    if (!alt) {
      return (
        <span aria-hidden="true" className={placeholder} title={reason}>
          {icon}
        </span>
      );
    }
    return (
      <span role="img" aria-label={`${alt}: ${reason.toLowerCase()}`} className={placeholder} title={reason}>
        {icon}
        {size === "lg" && <span className="px-2 text-center text-xs">{reason}</span>}
      </span>
    );
  }
  return (
    // biome-ignore lint/performance/noImgElement: merchant-hosted images of any origin, not optimised by Next
    <img
      src={url}
      alt={alt}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(url)}
      className={`${box} object-cover`}
    />
  );
}
