import { expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./env";

export { ADMIN_EMAIL, ADMIN_PASSWORD };

/** Signs in through the real form and waits for the course list. */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
}

/** A few-pixel PNG made on the spot, for image uploads. */
export async function pngFile(name = "course.png") {
  const buffer = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 30, g: 64, b: 175 } } }).png().toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** The smallest file the server's content check accepts as a PDF. */
export function pdfFile(name = "syllabus.pdf") {
  return { name, mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n") };
}

/** A unique suffix so tests sharing the e2e database never collide. */
export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
