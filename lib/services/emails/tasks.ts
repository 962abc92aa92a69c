/** The emails' background jobs (graphile-worker; registered in lib/events/worker.ts). */
export const EMAIL_TASKS = {
  /** Payload `{ event_id }`: the customer emails and email-destination emails of one event (queued by the trigger on events). */
  sendEventEmails: "send_event_emails",
  /** Payload `{ ids }`: deliver emails already written (the portal link). */
  deliverEmails: "deliver_emails",
  /** Payload `{ event_id, subscription_id, trial_ends_at }`: the trial-ending reminder, run a few days before. */
  trialEnding: "send_trial_ending_email",
} as const;
