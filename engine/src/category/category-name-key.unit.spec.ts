import { fixedCategories } from '@auction/contracts';
import { describe, expect, it } from 'vitest';
import { categoryNameKeys, confusableSkeleton } from './category-name-key';

describe('confusableSkeleton (Unicode TR39)', () => {
  it('maps look-alike letters of other scripts to their prototype', () => {
    expect(confusableSkeleton('\u0415lectronics')).toBe(confusableSkeleton('Electronics'));
    expect(confusableSkeleton('\u0391\u0392\u0421')).toBe('ABC');
    expect(confusableSkeleton('paypal')).toBe(confusableSkeleton('p\u0430yp\u0430l'));
  });

  it('drops default-ignorable characters and compares canonically equivalent text equal', () => {
    expect(confusableSkeleton('Elec\u200btronics\u200d')).toBe(confusableSkeleton('Electronics'));
    expect(confusableSkeleton('caf\u00e9')).toBe(confusableSkeleton('cafe\u0301'));
  });

  it('is idempotent', () => {
    for (const text of ['Electronics', 'Gaming', '\u0415lectr0nics', 'rn m', 'ℌello']) {
      const once = confusableSkeleton(text);
      expect(confusableSkeleton(once)).toBe(once);
    }
  });
});

describe('categoryNameKeys', () => {
  const same = (a: string, b: string) =>
    categoryNameKeys(a).some((key) => categoryNameKeys(b).includes(key));

  it.each([
    ['case and spacing', '  ANTIQUES ', 'Antiques'],
    ['fullwidth letters', 'Ｅｌｅｃｔｒｏｎｉｃｓ', 'Electronics'],
    ['a Cyrillic Е', '\u0415lectronics', 'Electronics'],
    ['Cyrillic capitals mixed in', '\u0415LECTRONICS', 'Electronics'],
    ['a zero-width space', 'Elec\u200btronics', 'Electronics'],
    ['a soft hyphen and a word joiner', 'Elec\u00adtro\u2060nics', 'Electronics'],
    ['a digit 0 for an o', 'Electr0nics', 'Electronics'],
    ['a capital I for an l', 'VehicIes', 'Vehicles'],
    ['rn for m', 'Garning', 'Gaming'],
    ['a Greek Α', '\u0391ntiques', 'Antiques'],
    ['an ideographic space', 'Real\u3000Estate', 'Real Estate'],
  ])('gives %s a key of the name it imitates', (_name, imitation, original) => {
    expect(same(imitation, original)).toBe(true);
  });

  it('keeps names that only share letters apart', () => {
    const fixed = fixedCategories.map(({ name }) => name);
    for (const a of fixed) for (const b of fixed) expect(same(a, b)).toBe(a === b);
    expect(same('Stamps', 'Stamp')).toBe(false);
    expect(same('Coins', 'Icons')).toBe(false);
    expect(same('Электроника', 'Electronics')).toBe(false);
  });

  it('gives at most two keys, without duplicates, and none empty', () => {
    for (const name of ['Electronics', 'VehicIes', 'Art & Collectibles', 'é', '💸']) {
      const keys = categoryNameKeys(name);
      expect(keys.length).toBeGreaterThanOrEqual(1);
      expect(keys.length).toBeLessThanOrEqual(2);
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of keys) expect(key.length).toBeGreaterThan(0);
    }
  });
});
