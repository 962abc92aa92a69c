"use client";

/**
 * The subscription's actions, each behind a dialog (one per file here) that says what will happen
 * and when, with the choices the API takes. A refused action keeps the dialog open with the API's
 * reason and everything entered; a done action closes it with a toast.
 */
import type { Subscription } from "@/lib/dashboard/subscriptions";
import { ActivateDialog } from "./activate-dialog";
import { BillingDetailsDialog } from "./billing-details-dialog";
import { CancelDialog } from "./cancel-dialog";
import { ChargeDialog } from "./charge-dialog";
import { DiscountDialog } from "./discount-dialog";
import { ItemsDialog } from "./items-dialog";
import { PauseDialog } from "./pause-dialog";
import { RemoveDiscountDialog } from "./remove-discount-dialog";
import { RemoveScheduledChangeDialog } from "./remove-scheduled-change-dialog";
import { ResumeDialog } from "./resume-dialog";

export type DialogKind =
  | "pause"
  | "resume"
  | "cancel"
  | "activate"
  | "remove_scheduled_change"
  | "items"
  | "charge"
  | "discount"
  | "remove_discount"
  | "billing_details";

/** The open dialog, or nothing. */
export function ActionDialog({
  kind,
  sub,
  onClose,
  card,
}: {
  kind: DialogKind | null;
  sub: Subscription;
  onClose: () => void;
  card?: string | null;
}) {
  switch (kind) {
    case "pause":
      return <PauseDialog sub={sub} onClose={onClose} />;
    case "resume":
      return <ResumeDialog sub={sub} onClose={onClose} card={card} />;
    case "cancel":
      return <CancelDialog sub={sub} onClose={onClose} />;
    case "activate":
      return <ActivateDialog sub={sub} onClose={onClose} card={card} />;
    case "remove_scheduled_change":
      return <RemoveScheduledChangeDialog sub={sub} onClose={onClose} />;
    case "items":
      return <ItemsDialog sub={sub} onClose={onClose} card={card} />;
    case "charge":
      return <ChargeDialog sub={sub} onClose={onClose} card={card} />;
    case "discount":
      return <DiscountDialog sub={sub} onClose={onClose} />;
    case "remove_discount":
      return <RemoveDiscountDialog sub={sub} onClose={onClose} />;
    case "billing_details":
      return <BillingDetailsDialog sub={sub} onClose={onClose} />;
    default:
      return null;
  }
}
