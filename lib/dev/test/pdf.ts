/** The text of a PDF, page by page, as a reader (or an accounting tool) extracts it. */
import { extractText } from "unpdf";

export interface PdfText {
  pages: string[];
  /** Every page's text, joined; runs of white space become one space. */
  text: string;
}

export async function pdfText(bytes: Uint8Array | ArrayBuffer): Promise<PdfText> {
  // PDF.js may take over (detach) the buffer it is given: hand it a copy.
  const copy = new Uint8Array(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).slice();
  const { text } = await extractText(copy, { mergePages: false });
  const pages = text.map((page) => page.replace(/\s+/g, " ").trim());
  return { pages, text: pages.join(" ") };
}
