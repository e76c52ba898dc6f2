import { z } from 'zod';

/**
 * Where a piece of text is shown, which says which characters it may hold:
 * - `line`: names, e-mails, category names: visible characters and spaces only.
 * - `title`: the same, and variation selectors, so that an emoji typed on a phone (❤️ is
 *   U+2764 U+FE0F) shows as an emoji.
 * - `multiline`: descriptions: as a title, and newlines, tabs and the zero-width (non-)joiners
 *   that emoji sequences and scripts such as Persian need.
 */
export type TextKind = 'line' | 'title' | 'multiline';

/**
 * Characters nobody sees or that change how the text around them is shown: controls (Cc),
 * format characters (Cf: zero-width spaces and joiners, bidirectional controls, the byte-order
 * mark, tags), lone surrogates (Cs), line and paragraph separators (Zl, Zp), the other default
 * ignorables (Hangul fillers, the combining grapheme joiner, variation selectors) and the blank
 * Braille pattern, which shows as nothing.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/gu;

const isVariationSelector = (code: number): boolean =>
  (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);

/** Tab, line feed, carriage return, zero-width non-joiner and joiner. */
const multilineOnly = new Set([0x09, 0x0a, 0x0d, 0x200c, 0x200d]);

const allowed: Record<TextKind, (code: number) => boolean> = {
  line: () => false,
  title: isVariationSelector,
  multiline: (code) => isVariationSelector(code) || multilineOnly.has(code),
};

/** The text in Unicode normalization form NFKC: fullwidth `Ａ` is `A`, `ﬁ` is `fi`, `e` + U+0301 is `é`. */
export const normaliseText = (text: string): string => text.normalize('NFKC');

/** The first character of `text` that text of this kind may not hold, or `undefined`. */
export const hiddenCharacterIn = (text: string, kind: TextKind = 'line'): string | undefined => {
  const isAllowed = allowed[kind];
  for (const [character] of text.matchAll(HIDDEN)) {
    if (!isAllowed(character.codePointAt(0) ?? 0)) return character;
  }
  return undefined;
};

/** The 400's message for text holding a character that `hiddenCharacterIn` finds. */
export const hiddenCharactersMessage = (label: string): string =>
  `${label} must not contain invisible or control characters`;

/**
 * Text as it comes in from a person: normalised to NFKC, trimmed, and refused (with
 * `hiddenCharactersMessage(label)`) when it holds a character its kind may not hold. Text made
 * only of invisible characters is refused this way; whitespace alone trims to empty, which the
 * caller's `.min(1, …)` reports as missing.
 */
export const visibleText = (label: string, kind: TextKind = 'line') =>
  z
    .string()
    .overwrite(normaliseText)
    .trim()
    .refine((text) => hiddenCharacterIn(text, kind) === undefined, hiddenCharactersMessage(label));
