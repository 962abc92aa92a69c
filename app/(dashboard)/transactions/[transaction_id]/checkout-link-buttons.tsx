"use client";

import { Button, ButtonLink } from "@/components/button";
import { copyText } from "@/components/copy-button";
import { useToast } from "@/components/toast";

/** "Open checkout" and "Copy checkout link": how an automatically-collected transaction gets paid. */
export function CheckoutLinkButtons({ url }: { url: string }) {
  const toast = useToast();
  return (
    <>
      <ButtonLink href={url} target="_blank" rel="noopener">
        Open checkout<span className="sr-only"> (opens in a new tab)</span>
      </ButtonLink>
      <Button
        variant="secondary"
        onClick={async () =>
          toast.show((await copyText(url)) ? "Checkout link copied." : `Copy the checkout link: ${url}`)
        }
      >
        Copy checkout link
      </Button>
    </>
  );
}
