const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const dollarsAndCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** `$1,250` or `$1,250.50`. */
export const formatMoney = (amount: number): string => {
  const cents = Math.round(amount * 100);
  return cents % 100 === 0 ? wholeDollars.format(cents / 100) : dollarsAndCents.format(cents / 100);
};

const longDate = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});
const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** `November 22, 2026` (spec: long English format). */
export const formatDate = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : longDate.format(date);
};

/** `November 22, 2026 at 8:41 PM`. */
export const formatDateTime = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
};

const clockTime = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** `2:48:03 PM`. */
export const formatClockTime = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : clockTime.format(date);
};

export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  totalMs: number;
}

/** Time left until `endIso` at `nowMs`, all zeros once it has passed. */
export const remainingUntil = (endIso: string, nowMs: number): Remaining => {
  const totalMs = Math.max(0, Date.parse(endIso) - nowMs);
  const totalSeconds = Math.floor(totalMs / 1000);
  return {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
    totalMs,
  };
};

/** The date part of an ISO time in local time, as a date input wants it (`2026-11-22`). */
export const dateInputValue = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

/** A chosen date with the current time of day, as an ISO timestamp (spec §5, create auction). */
export const dateWithCurrentTime = (dateValue: string, now = new Date()): string => {
  const [year, month, day] = dateValue.split('-').map(Number);
  const at = new Date(now);
  at.setFullYear(year ?? at.getFullYear(), (month ?? 1) - 1, day ?? 1);
  return at.toISOString();
};
