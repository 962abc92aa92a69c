/**
 * The page layout every document shares (invoices, credit notes), on pdf-lib: A4 pages with the
 * standard Helvetica fonts (nothing read from disk, so it runs the same in route handlers, in
 * `next build` output and in tests), top-down coordinates, text that wraps, a table whose header
 * repeats on each new page, a totals block, and "Page n of m" footers once the page count is known.
 *
 * Decisions: A4 (the international paper size; Letter printers scale it down without loss),
 * Helvetica in WinAnsiEncoding (text passes through toWinAnsi first, so any name renders), text
 * kept as real text (searchable, copyable, extractable by accounting tools).
 */
import { type Color, PDFDocument, type PDFFont, type PDFPage, PDFString, rgb, StandardFonts } from "pdf-lib";
import { qrMatrix } from "../qr/qr.ts";
import { fitInBox, type LogoImage } from "./logo.ts";
import { toWinAnsi } from "./win-ansi.ts";

export const PAGE = { width: 595.28, height: 841.89 };
export const MARGIN = { left: 50, right: 50, top: 50, bottom: 64 };
export const CONTENT_RIGHT = PAGE.width - MARGIN.right;
export const CONTENT_WIDTH = CONTENT_RIGHT - MARGIN.left;

export const COLORS = {
  text: rgb(0.09, 0.11, 0.16),
  muted: rgb(0.39, 0.43, 0.5),
  rule: rgb(0.82, 0.84, 0.87),
  band: rgb(0.95, 0.96, 0.97),
  accent: rgb(0.15, 0.33, 0.75),
  paid: rgb(0.05, 0.55, 0.32),
};

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: Color;
}

export interface DocumentMeta {
  title: string;
  author: string;
  subject: string;
  createdAt: Date;
}

/** A PDF being written, page by page, with a cursor `y` measured from the top of the page. */
export class DocumentWriter {
  y = MARGIN.top;
  page: PDFPage;
  /** Drawn at the top of each page added after the first (a table's header, say). */
  onNewPage: (() => void) | null = null;

  private constructor(
    private readonly pdf: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = pdf.addPage([PAGE.width, PAGE.height]);
  }

  static async create(meta: DocumentMeta): Promise<DocumentWriter> {
    const pdf = await PDFDocument.create();
    pdf.setTitle(toWinAnsi(meta.title));
    pdf.setAuthor(toWinAnsi(meta.author));
    pdf.setSubject(toWinAnsi(meta.subject));
    pdf.setCreator("Billing service");
    pdf.setProducer("Billing service (pdf-lib)");
    pdf.setCreationDate(meta.createdAt);
    pdf.setModificationDate(meta.createdAt);
    const regular = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    return new DocumentWriter(pdf, regular, bold);
  }

  font(style: TextStyle = {}): PDFFont {
    return style.bold ? this.bold : this.regular;
  }

  width(text: string, style: TextStyle = {}): number {
    return this.font(style).widthOfTextAtSize(toWinAnsi(text), style.size ?? 10);
  }

  /** Draws `text` with its baseline at `y` (from the top). `align` right puts its end at `x`. */
  text(text: string, x: number, y: number, style: TextStyle & { align?: "left" | "right" | "center" } = {}): void {
    const clean = toWinAnsi(text);
    if (clean === "") return;
    const size = style.size ?? 10;
    const width = this.font(style).widthOfTextAtSize(clean, size);
    const left = style.align === "right" ? x - width : style.align === "center" ? x - width / 2 : x;
    this.page.drawText(clean, {
      x: left,
      y: PAGE.height - y,
      size,
      font: this.font(style),
      color: style.color ?? COLORS.text,
    });
  }

  /** `text` broken into lines no wider than `maxWidth` (its own line breaks kept). */
  wrap(text: string, maxWidth: number, style: TextStyle = {}): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = "";
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (this.width(candidate, style) <= maxWidth) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        // A word longer than the line (a long ID, a URL) is cut where it must be.
        let rest = word;
        while (this.width(rest, style) > maxWidth) {
          let cut = rest.length - 1;
          while (cut > 1 && this.width(rest.slice(0, cut), style) > maxWidth) cut--;
          lines.push(rest.slice(0, cut));
          rest = rest.slice(cut);
        }
        line = rest;
      }
      lines.push(line);
    }
    return lines;
  }

  line(x1: number, y1: number, x2: number, y2: number, color: Color = COLORS.rule, thickness = 0.75): void {
    this.page.drawLine({
      start: { x: x1, y: PAGE.height - y1 },
      end: { x: x2, y: PAGE.height - y2 },
      thickness,
      color,
    });
  }

  /** A rectangle whose top-left corner is at (x, y). */
  rect(x: number, y: number, width: number, height: number, options: { fill?: Color; border?: Color } = {}): void {
    this.page.drawRectangle({
      x,
      y: PAGE.height - y - height,
      width,
      height,
      color: options.fill,
      borderColor: options.border,
      borderWidth: options.border ? 1.25 : 0,
    });
  }

  /** Makes the box whose top-left corner is (x, y) a link to `url` (an ASCII URL) in PDF readers. */
  link(url: string, x: number, y: number, width: number, height: number): void {
    const annotation = this.pdf.context.obj({
      Type: "Annot",
      Subtype: "Link",
      Rect: [x, PAGE.height - y - height, x + width, PAGE.height - y],
      Border: [0, 0, 0],
      A: { Type: "Action", S: "URI", URI: PDFString.of(url) },
    });
    this.page.node.addAnnot(this.pdf.context.register(annotation));
  }

  /**
   * Draws an image (PNG or JPEG bytes) scaled to fit a box whose top-left corner is (x, y), never
   * enlarged; returns the height drawn. An image pdf-lib cannot read is skipped (height 0): a
   * logo never stops an invoice from rendering.
   */
  async image(image: LogoImage, x: number, y: number, box: { width: number; height: number }): Promise<number> {
    try {
      const embedded =
        image.contentType === "image/png" ? await this.pdf.embedPng(image.bytes) : await this.pdf.embedJpg(image.bytes);
      // Pixels as points (72 per inch) before fitting: a small logo stays small.
      const size = fitInBox(embedded.width, embedded.height, box);
      this.page.drawImage(embedded, { x, y: PAGE.height - y - size.height, width: size.width, height: size.height });
      return size.height;
    } catch {
      return 0;
    }
  }

  /** Room left on this page below the cursor. */
  get spaceLeft(): number {
    return PAGE.height - MARGIN.bottom - this.y;
  }

  newPage(): void {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.y = MARGIN.top;
    this.onNewPage?.();
  }

  /** Starts a new page unless `height` still fits on this one. */
  ensureSpace(height: number): void {
    if (height > this.spaceLeft) this.newPage();
  }

  /** Writes the footer on every page (it may use the page count) and returns the PDF's bytes. */
  async finish(footer: (page: number, pages: number) => string): Promise<Uint8Array> {
    const pages = this.pdf.getPages();
    pages.forEach((page, i) => {
      this.page = page;
      const y = PAGE.height - MARGIN.bottom + 30;
      this.line(MARGIN.left, y - 14, CONTENT_RIGHT, y - 14);
      this.text(footer(i + 1, pages.length), PAGE.width / 2, y, { size: 8, color: COLORS.muted, align: "center" });
    });
    return this.pdf.save({ useObjectStreams: false });
  }
}

// ---------------------------------------------------------------------------------------------
// Blocks shared by the documents

/** Who issues the document (settings `merchant_*`). */
export interface Merchant {
  name: string;
  /** Multi-line postal address. */
  address: string | null;
  taxNumber: string | null;
  email: string | null;
  /** IANA zone the document's dates are printed in (default UTC). */
  timeZone?: string;
  /** The logo printed above the name (PDFs only read it; pages use the public URL). */
  logo?: LogoImage | null;
  /** The logo's public URL (`/logo?v=…`), for pages; null without a logo. */
  logoUrl?: string | null;
}

/** The box a logo is scaled to fit, top left of the first page (points). */
export const LOGO_BOX = { width: 170, height: 56 };

/** Who the document is addressed to, from the transaction's customer, business and address. */
export interface Recipient {
  name: string | null;
  email: string | null;
  businessName: string | null;
  companyNumber: string | null;
  taxIdentifier: string | null;
  /** Postal address, one line each (street, city with postal code, country). */
  addressLines: string[];
}

/**
 * The top of the first page: the merchant on the left; the title, an optional stamp ("Paid") and
 * the document's facts (label, value) on the right. Leaves the cursor below both.
 */
export async function drawHeader(
  w: DocumentWriter,
  input: {
    merchant: Merchant;
    title: string;
    stamp?: { text: string; color: Color } | null;
    facts: [string, string][];
  },
): Promise<void> {
  const top = w.y;
  let left = top + 14;
  if (input.merchant.logo) {
    const drawn = await w.image(input.merchant.logo, MARGIN.left, top, LOGO_BOX);
    if (drawn > 0) left = top + drawn + 20;
  }
  w.text(input.merchant.name, MARGIN.left, left, { size: 15, bold: true });
  left += 16;
  const merchantLines = [
    ...(input.merchant.address ?? "").split(/\r?\n/).filter((line) => line.trim() !== ""),
    ...(input.merchant.email ? [input.merchant.email] : []),
    ...(input.merchant.taxNumber ? [`Tax number: ${input.merchant.taxNumber}`] : []),
  ];
  for (const line of merchantLines) {
    for (const part of w.wrap(line, 250, { size: 9 })) {
      w.text(part, MARGIN.left, left, { size: 9, color: COLORS.muted });
      left += 12;
    }
  }

  let right = top + 22;
  w.text(input.title, CONTENT_RIGHT, right, { size: 24, bold: true, color: COLORS.accent, align: "right" });
  if (input.stamp) {
    const titleWidth = w.width(input.title, { size: 24, bold: true });
    const stampWidth = w.width(input.stamp.text, { size: 13, bold: true }) + 20;
    const x = CONTENT_RIGHT - titleWidth - 14 - stampWidth;
    w.rect(x, right - 19, stampWidth, 24, { border: input.stamp.color });
    w.text(input.stamp.text, x + stampWidth / 2, right - 2, {
      size: 13,
      bold: true,
      color: input.stamp.color,
      align: "center",
    });
  }
  right += 22;
  const labelX = CONTENT_RIGHT - 250;
  for (const [label, value] of input.facts) {
    const lines = w.wrap(value, 165, { size: 9, bold: true });
    w.text(label, labelX, right, { size: 9, color: COLORS.muted });
    for (const line of lines) {
      w.text(line, CONTENT_RIGHT, right, { size: 9, bold: true, align: "right" });
      right += 12;
    }
    right += 2;
  }
  w.y = Math.max(left, right) + 18;
}

/** A numbered document from the merchant: "Invoice" INV-000001, "Credit note" CN-000001. */
export interface DocumentIdentity {
  /** What it is; with the number, the PDF's title and each page's footer. */
  kind: string;
  number: string;
  merchant: Merchant;
  /** RFC 3339: the PDF's creation date. */
  issuedAt: string;
}

/** A writer for the document, with its PDF metadata: "{kind} {number}" by the merchant, created when issued. */
export function createDocument(doc: DocumentIdentity): Promise<DocumentWriter> {
  const name = `${doc.kind} ${doc.number}`;
  return DocumentWriter.create({
    title: name,
    author: doc.merchant.name,
    subject: `${name} from ${doc.merchant.name}`,
    createdAt: new Date(doc.issuedAt),
  });
}

/** Finishes the document: each page's footer names the merchant and the document, and numbers the page. */
export function finishDocument(w: DocumentWriter, doc: DocumentIdentity): Promise<Uint8Array> {
  return w.finish((page, pages) => `${doc.merchant.name}  ·  ${doc.kind} ${doc.number}  ·  Page ${page} of ${pages}`);
}

/** The document's file name, `{prefix}-{number}.pdf`, with only safe characters. */
export function documentFileName(prefix: string, number: string): string {
  return `${prefix}-${number.replace(/[^A-Za-z0-9._-]+/g, "-")}.pdf`;
}

/** The recipient's lines, the name first. */
export function recipientLines(to: Recipient): { text: string; bold?: boolean }[] {
  const lines: { text: string; bold?: boolean }[] = [];
  if (to.businessName) {
    lines.push({ text: to.businessName, bold: true });
    if (to.name) lines.push({ text: `Attn: ${to.name}` });
  } else if (to.name) lines.push({ text: to.name, bold: true });
  for (const line of to.addressLines) lines.push({ text: line });
  if (to.email) lines.push({ text: to.email });
  if (to.companyNumber) lines.push({ text: `Company number: ${to.companyNumber}` });
  if (to.taxIdentifier) lines.push({ text: `Tax ID: ${to.taxIdentifier}` });
  return lines;
}

/**
 * The recipient under a small heading on the left, and an optional highlighted box on the right
 * (the amount due, say). Leaves the cursor below both.
 */
export function drawRecipient(
  w: DocumentWriter,
  heading: string,
  to: Recipient,
  box?: { label: string; value: string; note?: string | null; color?: Color } | null,
): void {
  const top = w.y;
  let y = top + 10;
  w.text(heading.toUpperCase(), MARGIN.left, y, { size: 8, bold: true, color: COLORS.muted });
  y += 15;
  for (const line of recipientLines(to)) {
    for (const part of w.wrap(line.text, 260, { size: 10, bold: line.bold })) {
      w.text(part, MARGIN.left, y, { size: 10, bold: line.bold });
      y += 13;
    }
  }
  let boxBottom = top;
  if (box) {
    const width = 200;
    const x = CONTENT_RIGHT - width;
    const height = box.note ? 66 : 52;
    w.rect(x, top, width, height, { fill: COLORS.band });
    w.rect(x, top, 3, height, { fill: box.color ?? COLORS.accent });
    w.text(box.label, x + 16, top + 18, { size: 9, color: COLORS.muted });
    w.text(box.value, x + 16, top + 40, { size: 18, bold: true, color: box.color ?? COLORS.text });
    if (box.note) w.text(box.note, x + 16, top + 56, { size: 8.5, color: COLORS.muted });
    boxBottom = top + height;
  }
  w.y = Math.max(y, boxBottom) + 22;
}

export interface Column<R> {
  header: string;
  /** Width in points; the first column takes what the others leave. */
  width?: number;
  align?: "left" | "right";
  cell: (row: R) => string;
  /** A second, smaller line under the cell (the first column only). */
  detail?: (row: R) => string | null | undefined;
}

const ROW_PADDING = 7;
const LINE_HEIGHT = 12;

/** A table of `rows` across the page; long tables continue on new pages under a repeated header. */
export function drawTable<R>(w: DocumentWriter, columns: Column<R>[], rows: readonly R[]): void {
  const fixed = columns.slice(1).reduce((total, c) => total + (c.width ?? 70), 0);
  // Each column with its width and the x of its text, left to right.
  let left = MARGIN.left;
  const placed = columns.map((column, i) => {
    const width = i === 0 ? CONTENT_WIDTH - fixed : (column.width ?? 70);
    const x = column.align === "right" ? left + width - 6 : left + 6;
    left += width;
    return { column, width, x };
  });
  const [lead, ...others] = placed;
  if (!lead) throw new Error("drawTable needs at least one column");

  const header = () => {
    w.rect(MARGIN.left, w.y, CONTENT_WIDTH, 20, { fill: COLORS.band });
    for (const { column, x } of placed) {
      w.text(column.header, x, w.y + 13.5, { size: 8.5, bold: true, color: COLORS.muted, align: column.align });
    }
    w.y += 20;
  };
  w.ensureSpace(20 + 2 * LINE_HEIGHT + 2 * ROW_PADDING);
  header();
  const previous = w.onNewPage;
  w.onNewPage = header;
  for (const row of rows) {
    const first = w.wrap(lead.column.cell(row), lead.width - 12, { size: 9.5 });
    const detailText = lead.column.detail?.(row);
    const detail = detailText ? w.wrap(detailText, lead.width - 12, { size: 8 }) : [];
    const height = ROW_PADDING * 2 + first.length * LINE_HEIGHT + detail.length * 10;
    w.ensureSpace(height);
    let y = w.y + ROW_PADDING + 9;
    for (const line of first) {
      w.text(line, lead.x, y, { size: 9.5 });
      y += LINE_HEIGHT;
    }
    for (const line of detail) {
      w.text(line, lead.x, y - 1, { size: 8, color: COLORS.muted });
      y += 10;
    }
    for (const { column, x } of others) {
      w.text(column.cell(row), x, w.y + ROW_PADDING + 9, { size: 9.5, align: column.align });
    }
    w.y += height;
    w.line(MARGIN.left, w.y, CONTENT_RIGHT, w.y);
  }
  w.onNewPage = previous;
  w.y += 14;
}

export interface TotalRow {
  label: string;
  value: string;
  /** `strong` rows are bold with a rule above; `muted` ones are smaller and grey. */
  emphasis?: "strong" | "muted";
}

/** Label/amount rows aligned on the right half of the page, kept together on one page. */
export function drawTotals(w: DocumentWriter, rows: TotalRow[]): void {
  const height = rows.reduce((h, row) => h + (row.emphasis === "strong" ? 24 : 16), 0);
  w.ensureSpace(height);
  const labelX = CONTENT_RIGHT - 250;
  for (const row of rows) {
    if (row.emphasis === "strong") {
      w.line(labelX, w.y + 2, CONTENT_RIGHT, w.y + 2, COLORS.text, 1);
      w.y += 8;
    }
    const style = {
      size: row.emphasis === "strong" ? 11 : row.emphasis === "muted" ? 8.5 : 9.5,
      bold: row.emphasis === "strong",
      color: row.emphasis === "muted" ? COLORS.muted : COLORS.text,
    };
    w.text(row.label, labelX, w.y + 11, style);
    w.text(row.value, CONTENT_RIGHT, w.y + 11, { ...style, align: "right" });
    w.y += 16;
  }
  w.y += 12;
}

/** A heading and a paragraph (notes, a reason), wrapped over the content width. */
export function drawNote(w: DocumentWriter, heading: string, text: string): void {
  const lines = w.wrap(text, CONTENT_WIDTH, { size: 9 });
  w.ensureSpace(30);
  w.text(heading.toUpperCase(), MARGIN.left, w.y + 10, { size: 8, bold: true, color: COLORS.muted });
  w.y += 24;
  for (const line of lines) {
    w.ensureSpace(12);
    w.text(line, MARGIN.left, w.y, { size: 9 });
    w.y += 12;
  }
  w.y += 10;
}

/**
 * A QR code of `text` with its top-left corner at (x, y), `size` points wide (quiet zone
 * included): one black square per dark module on a white square, drawn as vectors so it prints
 * sharp at any scale.
 */
export function drawQrCode(w: DocumentWriter, text: string, x: number, y: number, size: number): void {
  const matrix = qrMatrix(text);
  const module = size / matrix.length;
  w.rect(x, y, size, size, { fill: rgb(1, 1, 1) });
  const black = rgb(0, 0, 0);
  for (const [row, cells] of matrix.entries()) {
    // Runs of dark modules in a row become one rectangle (fewer drawing operations).
    let start = -1;
    for (let col = 0; col <= cells.length; col++) {
      const dark = col < cells.length && cells[col];
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        w.rect(x + start * module, y + row * module, (col - start) * module, module, { fill: black });
        start = -1;
      }
    }
  }
}

/** The QR code's printed width: about 3.2 cm, which phones read from arm's length. */
const QR_SIZE = 90;

/**
 * "How to pay" on an unpaid invoice: the bank-transfer instructions on the left and, when there is
 * a link, "Pay online" with the link written out (it can be typed or clicked) and its QR code on
 * the right. Kept together on one page; nothing is drawn when there is neither.
 */
export function drawHowToPay(
  w: DocumentWriter,
  input: { bankTransfer: string | null; payOnlineUrl: string | null },
): void {
  if (!input.bankTransfer && !input.payOnlineUrl) return;
  const qrColumn = input.payOnlineUrl ? QR_SIZE + 170 : 0;
  const leftWidth = input.payOnlineUrl && input.bankTransfer ? CONTENT_WIDTH - qrColumn - 20 : CONTENT_WIDTH;
  const bankLines = input.bankTransfer ? w.wrap(input.bankTransfer, leftWidth, { size: 9 }) : [];
  const urlLines = input.payOnlineUrl ? w.wrap(input.payOnlineUrl, 160, { size: 7 }) : [];
  const bankHeight = bankLines.length > 0 ? 16 + bankLines.length * 12 : 0;
  const payHeight = input.payOnlineUrl ? Math.max(QR_SIZE, 30 + urlLines.length * 9) : 0;
  w.ensureSpace(24 + Math.max(bankHeight, payHeight) + 10);
  w.text("HOW TO PAY", MARGIN.left, w.y + 10, { size: 8, bold: true, color: COLORS.muted });
  const top = w.y + 22;
  let left = top;
  if (bankLines.length > 0) {
    w.text("Bank transfer", MARGIN.left, left + 9, { size: 9.5, bold: true });
    left += 22;
    for (const line of bankLines) {
      w.text(line, MARGIN.left, left, { size: 9 });
      left += 12;
    }
  }
  let right = top;
  if (input.payOnlineUrl) {
    const x = bankLines.length > 0 ? CONTENT_RIGHT - qrColumn : MARGIN.left;
    drawQrCode(w, input.payOnlineUrl, x, top, QR_SIZE);
    const textX = x + QR_SIZE + 10;
    w.text("Pay online", textX, top + 12, { size: 9.5, bold: true });
    w.text("Scan the code or open:", textX, top + 25, { size: 8, color: COLORS.muted });
    let y = top + 37;
    for (const line of urlLines) {
      w.text(line, textX, y, { size: 7, color: COLORS.accent });
      y += 9;
    }
    w.link(input.payOnlineUrl, x, top, qrColumn, QR_SIZE);
    right = top + Math.max(QR_SIZE, y - top);
  }
  w.y = Math.max(left, right) + 14;
}
