import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DURATION_DAYS,
  createAuctionEnd,
  createAuctionEndHint,
  createEndDateField,
  earliestCreateEndDate,
} from './auction-form';
import { localDateAfter } from '../../components/form-controls';

/** Local time: the date input and the hint speak the user's own calendar. */
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 10, day, hours, minutes, 12);
const parts = (date: Date) => [
  date.getFullYear(),
  date.getMonth(),
  date.getDate(),
  date.getHours(),
  date.getMinutes(),
];

describe("the create form's end date", () => {
  it('offers today until a quarter of an hour before 11:59 PM, then tomorrow', () => {
    expect(earliestCreateEndDate(at(26, 9, 30))).toBe('2026-11-26');
    expect(earliestCreateEndDate(at(26, 23, 43))).toBe('2026-11-26');
    expect(earliestCreateEndDate(at(26, 23, 45))).toBe('2026-11-27');
    expect(earliestCreateEndDate(new Date(2026, 11, 31, 23, 50))).toBe('2027-01-01');
  });

  it('no date ends 7 days from now, at the same time of day', () => {
    const now = at(26, 15, 30);
    const end = createAuctionEnd('', now);
    expect(end.kind).toBe('default');
    expect(DEFAULT_DURATION_DAYS).toBe(7);
    expect(parts(end.at)).toEqual([2026, 11, 3, 15, 30]);
    expect(end.at.getSeconds()).toBe(12);
  });

  it('today ends at 11:59 PM today, later than now', () => {
    const now = at(26, 15, 30);
    const end = createAuctionEnd('2026-11-26', now);
    expect(end.kind).toBe('today');
    expect(parts(end.at)).toEqual([2026, 10, 26, 23, 59]);
    expect([end.at.getSeconds(), end.at.getMilliseconds()]).toEqual([0, 0]);
    expect(end.at.getTime()).toBeGreaterThan(now.getTime());
  });

  it('a later date keeps the current time of day (spec §5)', () => {
    const end = createAuctionEnd('2026-12-05', at(26, 15, 30));
    expect(end.kind).toBe('date');
    expect(parts(end.at)).toEqual([2026, 11, 5, 15, 30]);
  });

  it('says which end the date stands for', () => {
    const now = at(26, 15, 30);
    expect(createAuctionEndHint('', now)).toMatch(
      /^No date chosen: bidding ends in 7 days, on December 3, 2026 at 3:30\sPM\.$/,
    );
    expect(createAuctionEndHint('2026-11-26', now)).toMatch(
      /^Bidding ends today at 11:59\sPM \(November 26, 2026\)\.$/,
    );
    expect(createAuctionEndHint('2026-12-05', now)).toMatch(
      /^Bidding ends on December 5, 2026 at 3:30\sPM, the current time of day\.$/,
    );
  });

  it('is optional, refuses a past date, and accepts today when it is offered', () => {
    const field = createEndDateField();
    expect(field.safeParse('').success).toBe(true);
    expect(field.safeParse(localDateAfter(-1)).success).toBe(false);
    expect(field.safeParse(localDateAfter(3)).success).toBe(true);
    expect(field.safeParse(localDateAfter(91)).success).toBe(false);
    const today = localDateAfter(0);
    expect(field.safeParse(today).success).toBe(earliestCreateEndDate() === today);
  });
});
