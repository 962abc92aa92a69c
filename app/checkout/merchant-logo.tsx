/**
 * The merchant's logo on customer-facing pages (checkout, hosted invoice, portal), from the public
 * `/logo` route. Decorative (empty alt): the merchant's name is always written beside it.
 */
export function MerchantLogo({
  url,
  small = false,
  className = "",
}: {
  url: string | null | undefined;
  small?: boolean;
  className?: string;
}) {
  if (!url) return null;
  return (
    // biome-ignore lint/performance/noImgElement: a small versioned image of ours, no optimisation needed
    <img
      src={url}
      alt=""
      data-testid="merchant-logo"
      className={`block h-auto w-auto object-contain ${small ? "max-h-10 max-w-[10rem]" : "max-h-14 max-w-[12rem]"} ${className}`}
    />
  );
}
