import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import {
  apiCall,
  checkListLoadingAndError,
  createCustomerInUi,
  dismissToasts,
  expectNoSeriousA11yViolations,
  sentEmails,
  shot,
  signIn,
  uniqueEmail,
  uniqueTag,
} from "../helpers";

/** A request the receiver got, with its body parsed when it is JSON. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { event_id?: string; event_type?: string; notification_id?: string; data?: { id?: string } } | null;
}

/**
 * A webhook endpoint of the merchant's, inside the test: node:http on 127.0.0.1 (a free port),
 * recording every request and answering 200 with a small JSON body.
 */
async function startReceiver() {
  const received: Received[] = [];
  /** Requests still to be answered 503 (failNext), as an endpoint that is down for a moment. */
  let failing = 0;
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      let json: Received["json"] = null;
      try {
        json = JSON.parse(body);
      } catch {
        // Not JSON: kept as text.
      }
      received.push({ path: request.url ?? "", headers: request.headers, body, json });
      if (failing > 0) {
        failing--;
        response.writeHead(503, { "content-type": "application/json" });
        response.end(JSON.stringify({ down: true }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    of: (eventType: string) => received.filter((r) => r.json?.event_type === eventType),
    failNext: (count: number) => {
      failing = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let receiver: Receiver;

test.beforeEach(async ({ page }) => {
  receiver = await startReceiver();
  await signIn(page);
});

test.afterEach(async () => {
  await receiver.close();
});

/** Creates a destination through the dashboard's API client (for tests about something else). */
async function createDestinationViaApi(
  page: Page,
  body: { description: string; destination: string; subscribed_events: string[]; traffic_source: string },
): Promise<string> {
  return page.evaluate(async (body) => {
    const response = await fetch("/api/notification-settings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "url", ...body }),
    });
    if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
    return (await response.json()).data.id as string;
  }, body);
}

test("a destination receives a customer's event; the log shows its delivery and attempt; a replay is sent again", async ({
  page,
}) => {
  const description = `Order service ${uniqueTag()}`;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notifications" }).click();
  await page.waitForURL("**/notifications/destinations");
  await expect(page).toHaveTitle(/Destinations/);
  await expect(page.getByRole("heading", { level: 1, name: "Destinations" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Notifications" });
  await expect(tabs.getByRole("link", { name: "Destinations" })).toHaveAttribute("aria-current", "page");
  await expect(
    page.getByRole("table", { name: "Destinations" }).or(page.getByText("No destinations yet")),
  ).toBeVisible();
  await shot(page, "notifications-destinations-before");

  // A destination at the receiver, subscribed to the Customer group (all of its events).
  await page.getByRole("button", { name: "New destination" }).first().click();
  const form = page.getByRole("form", { name: "New destination" });
  await expect(form.getByLabel("Description")).toBeFocused();
  await form.getByLabel("Description").fill(description);
  await form.getByLabel("Endpoint URL").fill(receiver.url);
  await form.getByRole("checkbox", { name: "All Customer events" }).check();
  await expect(form.getByRole("checkbox", { name: "customer.created" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "customer.updated" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "customer.imported" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "All Address events" })).not.toBeChecked();
  await expect(form.getByText(/^3 of \d+ selected$/)).toBeVisible();
  await form.getByLabel("Traffic source").selectOption({ label: "Real and simulated events" });
  await shot(page, "notifications-destination-form");
  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "created" })).toContainText(description);
  const row = page.getByRole("table", { name: "Destinations" }).getByRole("row").filter({ hasText: description });
  await expect(row).toContainText(receiver.url);
  await expect(row).toContainText("active");
  await expect(row).toContainText("3 events");
  await shot(page, "notifications-destinations");

  // A customer made through the dashboard: the receiver gets customer.created, signed.
  const email = uniqueEmail("webhook");
  const customerId = await createCustomerInUi(page, { email, name: "Webhook Watcher" });
  await expect
    .poll(() => receiver.of("customer.created").filter((r) => r.json?.data?.id === customerId).length, {
      timeout: 30_000,
      message: "the receiver gets customer.created",
    })
    .toBe(1);
  const delivery = receiver.of("customer.created").find((r) => r.json?.data?.id === customerId)!;
  expect(delivery.headers["service-signature"]).toMatch(/^ts=\d+;h1=[0-9a-f]{64}$/);
  expect(delivery.headers["content-type"]).toContain("application/json");
  const notificationId = delivery.json!.notification_id!;
  expect(notificationId).toMatch(/^ntf_[a-z0-9]{26}$/);

  // The log, filtered to the destination and searched by the customer's ID.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notifications" }).click();
  await page.getByRole("navigation", { name: "Notifications" }).getByRole("link", { name: "Log" }).click();
  await page.waitForURL("**/notifications/log");
  await expect(page.getByRole("heading", { level: 1, name: "Notification log" })).toBeVisible();
  await page.getByRole("combobox", { name: "Destination" }).selectOption({ label: description });
  const log = page.getByRole("table", { name: "Notifications" });
  const logRow = log.getByRole("row").filter({ hasText: notificationId });
  await expect(logRow).toContainText("customer.created");
  await expect(logRow).toContainText("delivered");
  await expect(logRow).toContainText(description);
  await page.getByRole("searchbox", { name: "Search notifications" }).fill(customerId);
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(logRow).toBeVisible();
  await shot(page, "notifications-log");

  // The status filter: nothing of this destination failed.
  await page.getByRole("combobox", { name: "Status" }).selectOption({ label: "Failed" });
  await expect(page.getByText("No notifications match")).toBeVisible();
  await shot(page, "notifications-log-empty");
  await page.getByRole("combobox", { name: "Status" }).selectOption({ label: "Delivered" });
  await expect(logRow).toBeVisible();

  // The notification: its payload and its attempt.
  await logRow.getByRole("link", { name: "customer.created" }).click();
  await page.waitForURL(`**/notifications/log/${notificationId}`);
  await expect(page).toHaveTitle(/Notification/);
  await expect(page.getByRole("heading", { level: 1, name: "customer.created" })).toBeVisible();
  await expect(page.getByRole("main").getByText("delivered", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Payload" })).toContainText(`"id": "${customerId}"`);
  await expect(page.getByRole("region", { name: "Payload" })).toContainText(email);
  await expect(page.getByRole("region", { name: "Delivery" })).toContainText(description);
  const attempts = page.getByRole("table", { name: "Attempts" });
  await expect(attempts.getByRole("row")).toHaveCount(2);
  const attempt = attempts.getByRole("row").nth(1);
  await expect(attempt).toContainText("200");
  await expect(attempt).toContainText(/\d+ ms/);
  await attempt.getByText("Show body").click();
  await expect(attempt).toContainText('"received": true');
  await shot(page, "notifications-notification");

  // Replay, behind a confirmation: a new notification of the same event, delivered too.
  await page.getByRole("button", { name: "Replay", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Replay this notification?" });
  await expect(dialog).toContainText(description);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await shot(page, "notifications-replay-dialog");
  await dialog.getByRole("button", { name: "Replay notification" }).click();
  await expect(dialog).toBeHidden();
  const replayed = page.getByRole("status").filter({ hasText: "Replayed" });
  const replayLink = replayed.getByRole("link", { name: /^ntf_[a-z0-9]{26}$/ });
  await expect(replayLink).toBeVisible();
  const replayId = (await replayLink.textContent())!;
  expect(replayId).not.toBe(notificationId);
  await expect
    .poll(() => receiver.of("customer.created").filter((r) => r.json?.notification_id === replayId).length, {
      timeout: 30_000,
      message: "the receiver gets the replay",
    })
    .toBe(1);
  const again = receiver.of("customer.created").find((r) => r.json?.notification_id === replayId)!;
  expect(again.json!.event_id).toBe(delivery.json!.event_id);
  await shot(page, "notifications-replay-queued");

  await replayLink.click();
  await page.waitForURL(`**/notifications/log/${replayId}`);
  await expect(page.getByRole("main").getByText("replay", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("main").getByText("delivered", { exact: true })).toBeVisible();
  await expect(page.getByRole("table", { name: "Attempts" }).getByRole("row").nth(1)).toContainText("200");
  // A replay cannot be replayed itself.
  await expect(page.getByRole("button", { name: "Replay", exact: true })).toHaveCount(0);
  await shot(page, "notifications-replay");

  // Back in the log, both are listed (newest first).
  await page.getByRole("link", { name: "Notification log" }).first().click();
  await page.getByRole("searchbox", { name: "Search notifications" }).fill(customerId);
  const rows = page.getByRole("table", { name: "Notifications" }).getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(replayId);
  await expect(rows.nth(2)).toContainText(notificationId);
});

test("the simulator sends a customer.created event to a destination and shows the request and the answer", async ({
  page,
}) => {
  const description = `Simulated ${uniqueTag()}`;
  await createDestinationViaApi(page, {
    description,
    destination: receiver.url,
    subscribed_events: ["customer.created"],
    traffic_source: "simulation",
  });
  await page.goto("/notifications/simulator");
  await expect(page).toHaveTitle(/Simulator/);
  await expect(page.getByRole("heading", { level: 1, name: "Simulator" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Notifications" }).getByRole("link", { name: "Simulator" }),
  ).toHaveAttribute("aria-current", "page");

  const form = page.getByRole("form", { name: "New simulation" });
  await form.getByLabel("Destination").selectOption({ label: description });
  await form.getByLabel("Simulate").selectOption("customer.created");
  await expect(form.getByLabel("Name")).toHaveValue("customer.created");
  const name = `New customer ${uniqueTag()}`;
  await form.getByLabel("Name").fill(name);
  await shot(page, "notifications-simulator");
  await form.getByRole("button", { name: "Run simulation" }).click();

  const run = page.getByRole("region", { name: `Run of “${name}”` });
  await expect(run).toBeVisible();
  await expect(run.getByRole("status")).toContainText("Run completed", { timeout: 30_000 });
  const event = run.getByRole("listitem").filter({ hasText: "customer.created" });
  await expect(event).toContainText("success");
  await expect(event).toContainText("Response 200");
  await expect(event).toContainText('"event_type": "customer.created"');
  await expect(event).toContainText('"received": true');
  expect(receiver.of("customer.created")).toHaveLength(1);
  expect(receiver.received[0]!.headers["service-signature"]).toMatch(/^ts=\d+;h1=[0-9a-f]{64}$/);
  await shot(page, "notifications-simulator-run");

  // Kept, to run again.
  const simulations = page.getByRole("table", { name: "Simulations" });
  await simulations.getByRole("button", { name: `Run again: ${name}` }).click();
  await expect(run.getByRole("status")).toContainText("Run completed", { timeout: 30_000 });
  await expect.poll(() => receiver.of("customer.created").length).toBe(2);
  await expect(simulations.getByRole("row").filter({ hasText: name })).toContainText(description);
});

test("a destination's Send test event opens the simulator on it; a failed delivery is retried now", async ({
  page,
}) => {
  const description = `Flaky endpoint ${uniqueTag()}`;
  const destinationId = await createDestinationViaApi(page, {
    description,
    destination: receiver.url,
    subscribed_events: ["customer.created"],
    traffic_source: "all",
  });

  // Send test event: the simulator with this destination chosen.
  await page.goto(`/notifications/destinations/${destinationId}`);
  await page.getByRole("link", { name: "Send test event" }).click();
  await page.waitForURL(`**/notifications/simulator?destination=${destinationId}`);
  const form = page.getByRole("form", { name: "New simulation" });
  await expect(form.getByLabel("Destination")).toHaveValue(destinationId);
  await form.getByLabel("Simulate").selectOption("customer.created");
  await form.getByRole("button", { name: "Run simulation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Run completed" })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => receiver.of("customer.created").length).toBe(1);

  // A real event while the endpoint is down: the first attempt fails and waits for its retry.
  receiver.failNext(1);
  const email = uniqueEmail("flaky");
  await apiCall(page, "POST", "/api/customers", { email });
  await expect.poll(() => receiver.of("customer.created").length, { timeout: 30_000 }).toBe(2);
  const notificationId = receiver.of("customer.created")[1]!.json!.notification_id!;
  await page.goto(`/notifications/log/${notificationId}`);
  await expect(page.getByRole("main").getByText("needs retry", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("table", { name: "Attempts" }).getByRole("row").nth(1)).toContainText("503");
  await shot(page, "notifications-needs-retry");

  // Retry now: delivered at once instead of at the scheduled time.
  await page.getByRole("button", { name: "Retry now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The next attempt is on its way." })).toBeVisible();
  await expect(page.getByRole("main").getByText("delivered", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("table", { name: "Attempts" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Retry now" })).toHaveCount(0);
  expect(receiver.of("customer.created")).toHaveLength(3);
  await shot(page, "notifications-retried-now");
});

test("destination form errors, the secret revealed, copied and rotated, edits, deactivation and deletion", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const description = `Edited ${uniqueTag()}`;
  await page.goto("/notifications/destinations");
  await page.getByRole("button", { name: "New destination" }).first().click();
  const form = page.getByRole("form", { name: "New destination" });
  await form.getByLabel("Description").fill(description);
  const url = form.getByLabel("Endpoint URL");
  await url.fill("ftp://example.com/hook");

  // No events: refused beside the events, and focus goes there.
  await form.getByRole("button", { name: "Add destination" }).click();
  const events = form.getByRole("group", { name: "Events" });
  await expect(events).toHaveAttribute("aria-invalid", "true");
  await expect(events).toHaveAccessibleDescription(/at least one event type/);
  await expect(events).toBeFocused();

  // Not an http(s) URL: the server's error sits beside the URL; what was typed and ticked stays.
  await form.getByRole("checkbox", { name: "customer.created" }).check();
  await expect(form.getByRole("checkbox", { name: "All Customer events" })).toBeChecked({ indeterminate: true });
  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(url).toHaveAccessibleDescription(/must be an http or https URL/);
  await expect(url).toBeFocused();
  await expect(url).toHaveValue("ftp://example.com/hook");
  await expect(form.getByLabel("Description")).toHaveValue(description);
  await expect(form.getByRole("checkbox", { name: "customer.created" })).toBeChecked();
  await expect(events).not.toHaveAttribute("aria-invalid", "true");
  await shot(page, "notifications-destination-form-error");

  await url.fill(receiver.url);
  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(form).toBeHidden();
  await page
    .getByRole("table", { name: "Destinations" })
    .getByRole("row")
    .filter({ hasText: description })
    .getByRole("link", { name: description })
    .click();
  await page.waitForURL(/\/notifications\/destinations\/ntfset_[a-z0-9]{26}$/);
  await expect(page).toHaveTitle(/Destination/);
  await expect(page.getByRole("heading", { level: 1, name: description })).toBeVisible();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText(receiver.url);
  await expect(details).toContainText("Real events only");
  await expect(details).toContainText("customer.created");
  await expect(
    page.getByRole("region", { name: "Recent notifications" }).getByText("No notifications yet"),
  ).toBeVisible();

  // The secret: hidden until revealed, copied either way.
  const secretSection = page.getByRole("region", { name: "Signing secret" });
  const secretPattern = /svc_ntfset_[a-z0-9]{26}_[A-Za-z0-9]{32}/;
  await expect(secretSection).toContainText("Hidden");
  await expect(secretSection).not.toContainText(secretPattern);
  await dismissToasts(page);
  await shot(page, "notifications-destination");
  await secretSection.getByRole("button", { name: "Reveal endpoint secret key" }).click();
  const shownSecret = secretSection.getByText(secretPattern);
  await expect(shownSecret).toBeVisible();
  const secret = (await shownSecret.textContent())!;
  await secretSection.getByRole("button", { name: "Copy endpoint secret key" }).click();
  await expect(secretSection.getByRole("status")).toHaveText("Copied to clipboard");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shot(page, "notifications-destination-secret");
  await secretSection.getByRole("button", { name: "Hide endpoint secret key" }).click();
  await expect(secretSection).not.toContainText(secretPattern);

  // Rotating asks first; Escape cancels; confirmed, the secret changes.
  await secretSection.getByRole("button", { name: "Rotate secret" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await expect(rotate).toBeVisible();
  await shot(page, "notifications-rotate-dialog");
  await page.keyboard.press("Escape");
  await expect(rotate).toBeHidden();
  await secretSection.getByRole("button", { name: "Rotate secret" }).click();
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  await expect(rotate).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Secret rotated" })).toBeVisible();
  await secretSection.getByRole("button", { name: "Reveal endpoint secret key" }).click();
  await expect(shownSecret).toBeVisible();
  await expect(shownSecret).not.toHaveText(secret);

  // Edit: a new description, the whole Customer group but customer.imported, simulated traffic too.
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("form", { name: "Edit destination" });
  await expect(edit.getByLabel("Description")).toHaveValue(description);
  await expect(edit.getByLabel("Endpoint URL")).toHaveValue(receiver.url);
  await edit.getByLabel("Description").fill(`${description} (v2)`);
  await edit.getByRole("checkbox", { name: "All Customer events" }).check();
  await edit.getByRole("checkbox", { name: "customer.imported" }).uncheck();
  await expect(edit.getByRole("checkbox", { name: "All Customer events" })).toBeChecked({ indeterminate: true });
  await edit.getByLabel("Traffic source").selectOption({ label: "Real and simulated events" });
  await edit.getByLabel("Include sensitive fields").check();
  await shot(page, "notifications-destination-edit");
  const patch = page.waitForRequest((r) => r.method() === "PATCH");
  await edit.getByRole("button", { name: "Save destination" }).click();
  // Only what changed is sent.
  expect((await patch).postDataJSON()).toEqual({
    description: `${description} (v2)`,
    traffic_source: "all",
    include_sensitive_fields: true,
    subscribed_events: ["customer.created", "customer.updated"],
  });
  await expect(edit).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: `${description} (v2)` })).toBeVisible();
  await expect(details).toContainText("customer.updated");
  await expect(details).not.toContainText("customer.imported");
  await expect(details).toContainText("Real and simulated events");
  await expect(details).toContainText("Included");

  // Deactivate and activate, at once.
  const header = page.locator("header").filter({ has: page.getByRole("heading", { level: 1 }) });
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  await expect(header).toContainText("inactive");
  await page.getByRole("button", { name: "Activate", exact: true }).click();
  await expect(header.getByText("active", { exact: true })).toBeVisible();

  // Delete, behind a confirmation: back to the list, without it.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const remove = page.getByRole("dialog", { name: "Delete this destination?" });
  await expect(remove).toContainText(`${description} (v2)`);
  await shot(page, "notifications-delete-dialog");
  await remove.getByRole("button", { name: "Delete destination" }).click();
  await page.waitForURL("**/notifications/destinations");
  await expect(page.getByRole("status").filter({ hasText: "deleted" })).toContainText(`${description} (v2)`);
  await expect(page.getByRole("row").filter({ hasText: description })).toHaveCount(0);
});

test("the log shows a skeleton while loading, an error with a retry, and an unknown notification's error", async ({
  page,
}) => {
  await checkListLoadingAndError(page, {
    api: "**/api/notifications?*",
    path: "/notifications/log",
    table: "Notifications",
    name: "notifications-log",
  });
  await expect(
    page.getByRole("table", { name: "Notifications" }).or(page.getByText(/^No notifications/)),
  ).toBeVisible();

  await page.goto("/notifications/log/ntf_00000000000000000000000000");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Could not load this notification");
  await expect(page.getByRole("link", { name: "Notification log" }).first()).toBeVisible();
  await shot(page, "notifications-not-found");
});

test("an email destination's notifications are in the log like a webhook's: delivered through SMTP", async ({
  page,
}) => {
  const description = `Ops inbox ${uniqueTag()}`;
  const address = uniqueEmail("ops-inbox");
  const destinationId = await page.evaluate(
    async (body) => {
      const response = await fetch("/api/notification-settings", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
      return (await response.json()).data.id as string;
    },
    {
      type: "email",
      description,
      destination: address,
      subscribed_events: ["customer.updated"],
      traffic_source: "all",
    },
  );
  try {
    const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", {
      email: uniqueEmail("emailed-change"),
    });
    await apiCall(page, "PATCH", `/api/customers/${customer.id}`, { name: "Emailed Change" });
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ status: string }[]>(
              page,
              "GET",
              `/api/notifications?notification_setting_id=${destinationId}&filter=${customer.id}`,
            )
          ).map((n) => n.status),
        { timeout: 30_000, message: "the email destination's notification is delivered" },
      )
      .toEqual(["delivered"]);

    await page.goto(`/notifications/log?destination=${destinationId}`);
    const row = page.getByRole("table", { name: "Notifications" }).getByRole("row").nth(1);
    await expect(row).toContainText("customer.updated");
    await expect(row).toContainText("delivered");
    await expect(row).toContainText(description);
    await shot(page, "notifications-log-email-destination");

    await row.getByRole("link", { name: "customer.updated" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "customer.updated" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Payload" })).toContainText(address);
    const attempts = page.getByRole("table", { name: "Attempts" });
    await expect(attempts.getByRole("columnheader", { name: "SMTP reply" })).toBeVisible();
    const attempt = attempts.getByRole("row").nth(1);
    // The SMTP server's reply: its code and its line (the suite's loopback server accepts every message).
    await expect(attempt.getByRole("cell").nth(1)).toHaveText("250");
    await attempt.getByText("Show body").click();
    await expect(attempt).toContainText("250");
    await shot(page, "notifications-email-notification");
    await expectNoSeriousA11yViolations(page, "an email destination's notification");

    // The email itself, on the Emails page's API.
    const emails = await apiCall<{ template: string; entity_id: string; status: string }[]>(
      page,
      "GET",
      `/api/emails?to=${encodeURIComponent(address)}`,
    );
    expect(emails.map((e) => [e.template, e.entity_id, e.status])).toEqual([["notification", customer.id, "sent"]]);
    // And the mailbox got it: the event in its subject.
    const [mail] = await sentEmails(address);
    expect(mail!.subject).toContain(`customer.updated ${customer.id}`);
  } finally {
    await apiCall(page, "PATCH", `/api/notification-settings/${destinationId}`, { active: false });
  }
});
