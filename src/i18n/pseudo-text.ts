/**
 * The pseudo-locale's letters (issue 34 §7): "Sign in" → "Ŝîĝñ îñ". Shared by
 * the client's pseudo-locale (client/src/i18n/pseudo.ts) and the server's
 * error messages for a request in en-XA (./messages.ts).
 */
const ACCENTED: Record<string, string> = {
  a: "á", b: "ƀ", c: "ç", d: "ð", e: "é", f: "ƒ", g: "ĝ", h: "ĥ", i: "î", j: "ĵ", k: "ķ", l: "ļ", m: "ɱ",
  n: "ñ", o: "ö", p: "þ", q: "ǫ", r: "ŕ", s: "š", t: "ţ", u: "û", v: "ṽ", w: "ŵ", x: "ẋ", y: "ý", z: "ž",
  A: "Å", B: "Ɓ", C: "Ç", D: "Ð", E: "É", F: "Ƒ", G: "Ĝ", H: "Ĥ", I: "Î", J: "Ĵ", K: "Ķ", L: "Ļ", M: "Ṁ",
  N: "Ñ", O: "Ö", P: "Þ", Q: "Ǫ", R: "Ŕ", S: "Š", T: "Ţ", U: "Û", V: "Ṽ", W: "Ŵ", X: "Ẋ", Y: "Ý", Z: "Ž",
};

/** Accents the letters of a text segment, leaving Trans tags (`<0>`, `</0>`, `<0/>`) alone. */
export function accent(text: string): string {
  return text
    .split(/(<\/?\d+\/?>)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[A-Za-z]/g, (ch) => ACCENTED[ch] ?? ch)))
    .join("");
}

