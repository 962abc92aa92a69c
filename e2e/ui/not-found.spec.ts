/** An unknown address: a 404 page with a main landmark, a heading and a way back. */
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";

test("an unknown page answers 404 with a main landmark and a link to the dashboard", async ({ page }) => {
  const response = await page.goto(`${baseURL}/no-such-page`);
  expect(response?.status()).toBe(404);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Go to the dashboard" })).toHaveAttribute("href", "/");
});
