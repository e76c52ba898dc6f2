import { describe, expect, it } from 'vitest';
import { startingPriceField } from './auction-form';

const DECIMALS = 'Amounts may have at most two decimals';

describe('the auction forms check money as the server does', () => {
  it.each([
    ['100', true],
    ['100.1', true],
    ['100.10', true],
    ['102.009999999', false],
    ['100.100000000000000000001', false],
    ['100.125', false],
  ])('starting price %s: accepted %s', (value, accepted) => {
    const result = startingPriceField.safeParse(value);
    expect(result.success).toBe(accepted);
    if (!accepted) expect(result.error?.issues[0]?.message).toBe(DECIMALS);
  });
});
