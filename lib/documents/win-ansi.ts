/**
 * Text for the PDF standard fonts (Helvetica), which are written in WinAnsiEncoding: Latin-1 plus a
 * few typographic characters (€, curly quotes, dashes, …). Everything a person types must reach the
 * page without crashing the renderer, so text outside that set is transliterated (accents dropped:
 * "Łódź" → "Lodz") and what has no Latin form becomes "?". "Zoë Müller" needs none of it.
 */

/** The characters of WinAnsiEncoding's 0x80–0x9F block (the rest is Latin-1). */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Letters that Unicode does not decompose into a base letter and an accent. */
const LATIN_FALLBACKS: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  Ŀ: "L",
  ŀ: "l",
  Ŋ: "N",
  ŋ: "n",
  Ŧ: "T",
  ŧ: "t",
  ſ: "s",
  "\u2010": "-",
  "\u2011": "-",
  "\u2212": "-",
  "\u2032": "'",
  "\u2033": '"',
  "\u00a0": " ",
  "\u2009": " ",
  "\u202f": " ",
};

export function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);
}

/** `text` with every character drawable in WinAnsiEncoding (line breaks and tabs become spaces). */
export function toWinAnsi(text: string): string {
  let out = "";
  for (const char of text) {
    if (isWinAnsi(char)) {
      out += char;
      continue;
    }
    if (char === "\n" || char === "\r" || char === "\t") {
      out += " ";
      continue;
    }
    const fallback = LATIN_FALLBACKS[char];
    if (fallback !== undefined) {
      out += fallback;
      continue;
    }
    // "ő" → "o" + U+030B: keep the base letter when it is drawable, drop the marks.
    const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
    if (base !== "" && [...base].every(isWinAnsi)) out += base;
    else if (/\p{M}|\p{Cc}|\p{Cf}/u.test(char)) continue;
    else out += "?";
  }
  return out;
}
