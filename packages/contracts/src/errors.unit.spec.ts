import { describe, expect, it } from 'vitest';
import {
  DomainError,
  type ErrorCode,
  bidTooLow,
  buyNowPriceChanged,
  errorCatalog,
  errorCodes,
  httpStatusOf,
  rejection,
} from './errors';

describe('the error catalog', () => {
  it('lists every code once, in SCREAMING_SNAKE_CASE', () => {
    expect(errorCodes).toEqual(Object.keys(errorCatalog));
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
    for (const code of errorCodes) expect(code).toMatch(/^[A-Z][A-Z_]*[A-Z]$/);
  });

  it.each(errorCodes)('%s has an error status and a message a user can read', (code) => {
    const { status, message } = errorCatalog[code];
    expect(Number.isInteger(status)).toBe(true);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
    expect(message.trim()).toBe(message);
    expect(message).toMatch(/^[A-Z]/);
    expect(message.length).toBeGreaterThan(5);
  });

  it.each(errorCodes)('%s encodes the same over HTTP and as a rejection', (code) => {
    expect(httpStatusOf(code)).toBe(errorCatalog[code].status);
    expect(rejection(code)).toEqual({ code, message: errorCatalog[code].message });
  });
});

describe('rejection', () => {
  it('carries details when given, and a message of its own when given', () => {
    expect(rejection('BID_TOO_LOW', { minimum: 100 })).toEqual({
      code: 'BID_TOO_LOW',
      message: errorCatalog.BID_TOO_LOW.message,
      details: { minimum: 100 },
    });
    expect(rejection('NOT_FOUND', undefined, 'No such page')).toEqual({
      code: 'NOT_FOUND',
      message: 'No such page',
    });
    expect('details' in rejection('NOT_FOUND')).toBe(false);
  });

  it('bidTooLow names the smallest accepted amount in dollars, and carries it in cents', () => {
    expect(bidTooLow(10_250)).toEqual({
      code: 'BID_TOO_LOW',
      message: 'Your bid must be at least $102.50',
      details: { minimum: 10_250 },
    });
  });

  it('buyNowPriceChanged names the price on offer now in dollars, and carries it in cents', () => {
    expect(buyNowPriceChanged(123_450)).toEqual({
      code: 'BUY_NOW_PRICE_CHANGED',
      message: 'The Buy It Now price has changed to $1,234.50',
      details: { price: 123_450 },
    });
  });
});

describe('DomainError', () => {
  const rejections = [
    rejection('AUCTION_ENDED'),
    rejection('AUCTION_NOT_ENDED', { endsAt: '2030-01-01T00:00:00.000Z' }),
    bidTooLow(12_345),
  ];

  it.each(rejections)('carries the rejection %j across a throw and back', (original) => {
    const thrown = new DomainError(original);
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown.name).toBe('DomainError');
    expect(thrown.code satisfies ErrorCode).toBe(original.code);
    expect(thrown.message).toBe(original.message);
    expect(thrown.toRejection()).toEqual(original);
  });
});
