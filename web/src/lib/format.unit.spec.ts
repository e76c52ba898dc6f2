import { describe, expect, test } from 'vitest';
import { dateWithCurrentTime, formatDate, formatMoney, remainingUntil } from './format';

describe('money and dates as the spec shows them', () => {
  test('dollars with a sign, cents only when there are some', () => {
    expect(formatMoney(0)).toBe('$0');
    expect(formatMoney(1250)).toBe('$1,250');
    expect(formatMoney(1250.5)).toBe('$1,250.50');
  });

  test('dates in the long English format', () => {
    expect(formatDate('2026-11-22T12:00:00.000Z')).toBe('November 22, 2026');
    expect(formatDate('not a date')).toBe('');
  });

  test('a chosen date keeps the current time of day', () => {
    const now = new Date(2026, 10, 22, 15, 30, 12);
    const chosen = new Date(dateWithCurrentTime('2026-12-03', now));
    expect([chosen.getFullYear(), chosen.getMonth(), chosen.getDate()]).toEqual([2026, 11, 3]);
    expect([chosen.getHours(), chosen.getMinutes(), chosen.getSeconds()]).toEqual([15, 30, 12]);
  });
});

describe('the countdown', () => {
  const end = '2026-11-22T12:00:00.000Z';
  const at = (iso: string) => remainingUntil(end, Date.parse(iso));

  test('days, hours, minutes and seconds left', () => {
    expect(at('2026-11-20T10:58:57.500Z')).toMatchObject({
      days: 2,
      hours: 1,
      minutes: 1,
      seconds: 2,
    });
  });

  test('zeros once the end has passed', () => {
    expect(at('2026-11-22T12:00:00.000Z')).toEqual({
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
      totalMs: 0,
    });
    expect(at('2027-01-01T00:00:00.000Z').totalMs).toBe(0);
  });
});
