import { GET as adjustments } from "@/app/api/adjustments/route";
import { GET as apiKeys } from "@/app/api/api-keys/route";
import { GET as customers } from "@/app/api/customers/route";
import { GET as discountGroups } from "@/app/api/discount-groups/route";
import { GET as discounts } from "@/app/api/discounts/route";
import { GET as events } from "@/app/api/events/route";
import { GET as notificationSettings } from "@/app/api/notification-settings/route";
import { GET as notifications } from "@/app/api/notifications/route";
import { GET as prices } from "@/app/api/prices/route";
import { GET as products } from "@/app/api/products/route";
import { GET as subscriptions } from "@/app/api/subscriptions/route";
import { GET as transactions } from "@/app/api/transactions/route";
import { exportCsv, noSuchExport } from "@/lib/http/csv-export";

/** `/exports/<list>.csv?<the list's API filters>`: the dashboard's "Export CSV" (lib/http/csv-export.ts). */
const LISTS = {
  adjustments,
  "api-keys": apiKeys,
  customers,
  "discount-groups": discountGroups,
  discounts,
  events,
  "notification-settings": notificationSettings,
  notifications,
  prices,
  products,
  subscriptions,
  transactions,
};

export async function GET(request: Request, context: { params: Promise<{ list: string }> }) {
  const name = (await context.params).list.replace(/\.csv$/, "");
  if (!Object.hasOwn(LISTS, name)) return noSuchExport(name);
  const date = new Date().toISOString().slice(0, 10);
  return exportCsv(request, LISTS[name as keyof typeof LISTS], `/${name}`, `${name}-${date}.csv`);
}
