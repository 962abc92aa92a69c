/**
 * Team and roles: a viewer is offered no write action (each refused one says why), an owner
 * invites a teammate who joins through the one-time link, and the audit log tells who did what.
 */
import { expect, type Page, test } from "@playwright/test";
import { cli } from "../cli";
import {
  apiCall,
  createCustomerInUi,
  expectNoSeriousA11yViolations,
  screenshot,
  sentEmails,
  signIn,
  uniqueEmail,
} from "../helpers";

const PASSWORD = "e2e-staff-password";

function staff(role: "owner" | "viewer"): { email: string; password: string } {
  const email = uniqueEmail(role);
  cli(["users", "create", "--email", email, "--password", PASSWORD, "--role", role]);
  return { email, password: PASSWORD };
}

/** Names of the write actions of the dashboard's pages. */
const WRITE =
  /^(New |Create |Add |Save|Refund|Credit|Archive|Unarchive|Edit|Delete|Issue|Mark as paid|Revoke|Activate|Deactivate|Run |Rotate|Cancel subscription|Pause|Resume)/;

/** Every enabled button whose name is a write action. */
async function enabledWriteButtons(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const button of await page.getByRole("main").getByRole("button").all()) {
    const name = ((await button.getAttribute("aria-label")) ?? (await button.textContent()) ?? "").trim();
    if (WRITE.test(name) && (await button.isEnabled())) names.push(name);
  }
  return names;
}

test("a viewer is offered no write action, and each refused one says why", async ({ page }) => {
  await signIn(page, staff("viewer"));
  const pages: [string, string, string | null][] = [
    ["/customers", "Customers", "New customer"],
    ["/catalogue/products", "Products", "New product"],
    ["/catalogue/discounts", "Discounts", "New discount"],
    ["/catalogue/discount-groups", "Discount groups", "New discount group"],
    ["/transactions", "Transactions", "New invoice"],
    ["/notifications/destinations", "Destinations", "New destination"],
    ["/developers", "Developers", "Create API key"],
    ["/settings", "Settings", "Save settings"],
  ];
  for (const [path, heading, refused] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    if (refused) {
      const button = page.getByRole("button", { name: refused }).first();
      await expect(button, `${path}: ${refused}`).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(/^Your role \(viewer\) cannot /);
      await expect(button).toHaveAttribute("title", /^Your role \(viewer\) cannot /);
    }
    expect(await enabledWriteButtons(page), `${path} (${heading})`).toEqual([]);
  }
  await page.goto("/customers");
  await expect(page.getByRole("button", { name: "New customer" }).first()).toBeDisabled();
  await screenshot(page, "team-viewer-customers");
  await page.goto("/team");
  await expect(page.getByText("Only owners manage the team")).toBeVisible();
  await page.goto("/audit-log");
  await expect(page.getByText("Your role (viewer) cannot read the audit log.")).toBeVisible();
});

test("an owner invites a teammate, who joins with the link in a fresh browser", async ({ page, browser }) => {
  // Two browsers, an email and a sign-in: past the default 60 s on a busy machine.
  test.setTimeout(120_000);
  await signIn(page, staff("owner"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  const email = uniqueEmail("invited");
  const form = page.getByRole("form", { name: "Invite a teammate" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption("developer");
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent to" })).toContainText(
    `Invitation sent to ${email} (developer)`,
  );
  const link = await page.getByLabel("Invitation link", { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(email);
  await screenshot(page, "team-invited");
  await expectNoSeriousA11yViolations(page, "team page, invitation sent");

  // The invitation email reached the invitee's mailbox (the suite's loopback SMTP server) with
  // the link; the Emails log keeps a copy that names the role and the business but hides the
  // one-time token (anyone who reads the log could otherwise join).
  const [mail] = await sentEmails(email);
  const mailed = /(http:\/\/\S+\/invite\/[A-Za-z0-9_-]{43})/.exec(mail!.text ?? "")?.[1];
  expect(mailed).toBe(link);
  expect(mail!.html).toContain(`href="${link}"`);
  const token = link.split("/invite/")[1];
  const emails = await apiCall<{ id: string; template: string; subject: string }[]>(
    page,
    "GET",
    `/api/emails?to=${encodeURIComponent(email)}`,
  );
  expect(emails.map((e) => e.template)).toEqual(["team_invite"]);
  expect(emails[0]!.subject).toMatch(/invited you to the .+ billing dashboard$/);
  const sent = await apiCall<{ text: string; html: string }>(page, "GET", `/api/emails/${emails[0]!.id}`);
  expect(sent.text).toContain("as a developer");
  expect(sent.text).toContain("/invite/[link hidden: shown once to the inviter]");
  expect(sent.text + sent.html).not.toContain(token);
  await page.goto(`/emails/${emails[0]!.id}`);
  await expect(page.getByRole("main")).toContainText("Team invitation");
  await screenshot(page, "team-invite-email");

  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  await invitee.goto(new URL(mailed as string).pathname);
  await expect(invitee.getByText(`You were invited as ${email}`)).toBeVisible();
  // The link is a capability, like the hosted invoice's: not for search engines.
  await expect(invitee.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  await invitee.getByLabel("Password", { exact: true }).fill("short");
  await invitee.getByLabel("Password again").fill("short");
  await invitee.getByRole("button", { name: "Join and sign in" }).click();
  await expect(invitee.getByRole("main").getByRole("alert")).toContainText("at least 10 characters");
  await screenshot(invitee, "team-invite-page");
  await invitee.getByLabel("Password", { exact: true }).fill("a teammate's password");
  await invitee.getByLabel("Password again").fill("a teammate's password");
  await invitee.getByRole("button", { name: "Join and sign in" }).click();
  await invitee.waitForURL((url) => url.pathname === "/");
  await expect(invitee.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await expect(invitee.getByText(email).first()).toBeVisible();
  // The link worked once: then 410 (app/invite/link/route.ts), with the way to sign in.
  const used = await invitee.goto(new URL(link).pathname);
  expect(used?.status()).toBe(410);
  await expect(invitee.getByRole("main").getByRole("alert")).toContainText("already been used");
  await expect(invitee.getByRole("link", { name: "Go to sign-in" })).toBeVisible();
  await fresh.close();

  await page.goto("/team");
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row").filter({ hasText: email })).toContainText("developer");
  await screenshot(page, "team-members");
});

test("the audit log shows who created a customer", async ({ page }) => {
  const owner = staff("owner");
  await signIn(page, owner);
  const email = uniqueEmail("audited");
  const customerId = await createCustomerInUi(page, { email });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await page.getByLabel("Entity ID").fill(customerId);
  const table = page.getByRole("table", { name: "Audit log" });
  await expect(table.getByRole("row")).toHaveCount(2);
  const row = table.getByRole("row").nth(1);
  await expect(row).toContainText(owner.email);
  // In business words, linked to what it names; the raw request only on hover.
  await expect(row).toContainText(`Added customer ${email}`);
  await expect(row.getByRole("link", { name: email })).toHaveAttribute("href", `/customers/${customerId}`);
  await expect(row).not.toContainText("POST /api/customers");
  await expect(row.locator('[title="POST /api/customers"]')).toBeVisible();
  expect(new URL(page.url()).searchParams.get("entity_id")).toBe(customerId);
  await screenshot(page, "team-audit-log");
  // Kept in the address: a reload shows the same filtered list.
  await page.reload();
  await expect(page.getByRole("table", { name: "Audit log" }).getByRole("row")).toHaveCount(2);
  // An edited link with an actor type the filter does not offer is read as no such filter, not an error.
  await page.goto(`/audit-log?entity_id=${customerId}&actor_type=staff`);
  await expect(page.getByRole("table", { name: "Audit log" }).getByRole("row")).toHaveCount(2);
  await expect(page.getByLabel("Actor", { exact: true })).toHaveValue("");
});
