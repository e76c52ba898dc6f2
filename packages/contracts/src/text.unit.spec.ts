import { describe, expect, it } from 'vitest';
import { hiddenCharacterIn, hiddenCharactersMessage, normaliseText, visibleText } from './text';

describe('normaliseText', () => {
  it('folds compatibility forms (NFKC): fullwidth letters, ligatures, composed accents', () => {
    expect(normaliseText('Ｅｌｅｃｔｒｏｎｉｃｓ')).toBe('Electronics');
    expect(normaliseText('ａｌｉｃｅ＠example.com')).toBe('alice@example.com');
    expect(normaliseText('ﬁne')).toBe('fine');
    expect(normaliseText('e\u0301')).toBe('é');
    expect(normaliseText('a\u3000b')).toBe('a b');
  });

  it('leaves a Cyrillic letter alone: that is a confusable, not a compatibility form', () => {
    expect(normaliseText('\u0415lectronics')).not.toBe('Electronics');
  });
});

describe('hiddenCharacterIn', () => {
  const hidden: [string, string][] = [
    ['a zero-width space', '\u200b'],
    ['a zero-width joiner', '\u200d'],
    ['a zero-width non-joiner', '\u200c'],
    ['a byte-order mark', '\ufeff'],
    ['a word joiner', '\u2060'],
    ['a soft hyphen', '\u00ad'],
    ['a right-to-left override', '\u202e'],
    ['a left-to-right mark', '\u200e'],
    ['a right-to-left isolate', '\u2067'],
    ['an Arabic letter mark', '\u061c'],
    ['a tag character', '\u{e0041}'],
    ['NUL', '\u0000'],
    ['a tab', '\t'],
    ['a newline', '\n'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
    ['a line separator', '\u2028'],
    ['a lone surrogate', '\ud800'],
    ['a Hangul filler', '\u3164'],
    ['a halfwidth Hangul filler', '\uffa0'],
    ['a combining grapheme joiner', '\u034f'],
    ['a variation selector', '\ufe0f'],
    ['a blank Braille pattern', '\u2800'],
  ];
  it.each(hidden)('finds %s in a name', (_name, character) => {
    expect(hiddenCharacterIn(`Ali${character}ce`, 'line')).toBe(character);
  });

  it.each([
    ['plain text', 'Rare Books & Maps'],
    ['accents', 'Crème brûlée'],
    ['other scripts', 'Электроника 電子 إلكترونيات'],
    ['emoji', '💸🔥'],
    ['ordinary spaces', 'a b'],
  ])('finds nothing in %s', (_name, text) => {
    expect(hiddenCharacterIn(text, 'line')).toBeUndefined();
  });

  it('lets a title show emoji as emoji (variation selectors) but nothing else hidden', () => {
    expect(hiddenCharacterIn('Vintage \u2708\ufe0f poster', 'title')).toBeUndefined();
    expect(hiddenCharacterIn('Clock\u200b', 'title')).toBe('\u200b');
    expect(hiddenCharacterIn('Clock\u202e', 'title')).toBe('\u202e');
    expect(hiddenCharacterIn('Clock\n', 'title')).toBe('\n');
  });

  it('lets a description have newlines, tabs and joiners, not controls or bidi overrides', () => {
    expect(hiddenCharacterIn('Line one\r\n\tLine two', 'multiline')).toBeUndefined();
    expect(
      hiddenCharacterIn(
        '\u{1f469}\u200d\u{1f4bb} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
        'multiline',
      ),
    ).toBeUndefined();
    expect(hiddenCharacterIn('a\u0000b', 'multiline')).toBe('\u0000');
    expect(hiddenCharacterIn('a\u202eb', 'multiline')).toBe('\u202e');
    expect(hiddenCharacterIn('a\u200bb', 'multiline')).toBe('\u200b');
    expect(hiddenCharacterIn('a\u2028b', 'multiline')).toBe('\u2028');
  });
});

describe('visibleText', () => {
  const name = visibleText('First name').min(1, 'First name is required');

  it('normalises and trims', () => {
    expect(name.parse('  Ｇｒａｃｅ ')).toBe('Grace');
  });

  it.each([
    ['a zero-width character', 'Gr\u200bace'],
    ['only invisible characters', '\u200b\u200b'],
    ['only Hangul fillers', '\u3164\u3164'],
    ['only blank Braille patterns', '\u2800\u2800'],
  ])('refuses %s with the message', (_name, value) => {
    const result = name.safeParse(value);
    expect(result.error?.issues[0]?.message).toBe(hiddenCharactersMessage('First name'));
  });

  it('reads whitespace alone as empty', () => {
    expect(name.safeParse(' \u3000\u00a0 ').error?.issues[0]?.message).toBe(
      'First name is required',
    );
  });
});
