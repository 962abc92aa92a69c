// Kept apart from lib/ids.ts (which needs node:crypto) so that client-side code, such as the
// dashboard forms importing lib/schemas, can use the prefixes.

/** Entity ID prefixes of the API (spec: Conventions, prefix table) plus our own internal ones. */
export const ID_PREFIX = {
  customer: "ctm",
  address: "add",
  business: "biz",
  product: "pro",
  price: "pri",
  discount: "dsc",
  discountRevision: "dscrev",
  discountGroup: "dsg",
  transaction: "txn",
  transactionItem: "txnitm",
  invoice: "inv",
  subscription: "sub",
  subscriptionItem: "subitm",
  subscriptionCharge: "subchg",
  paymentMethod: "paymtd",
  customerPortalSession: "cpls",
  adjustment: "adj",
  adjustmentItem: "adjitm",
  clientToken: "ctkn",
  checkoutDomain: "chedom",
  paymentLink: "plink",
  notification: "ntf",
  notificationLog: "ntflog",
  notificationSetting: "ntfset",
  simulation: "ntfsim",
  simulationRun: "ntfsimrun",
  simulationEvent: "ntfsimevt",
  event: "evt",
  apiKey: "apikey",
  report: "rep",
  user: "usr",
  email: "eml",
  userInvite: "usrinv",
  auditLogEntry: "aud",
} as const;

export type IdPrefix = (typeof ID_PREFIX)[keyof typeof ID_PREFIX];
