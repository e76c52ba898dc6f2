import type { ServerResponse } from 'node:http';

/** The raw value of cookie `name` in a Cookie header (the first one, as the cookie module reads). */
export const cookieValue = (header: string | undefined, name: string): string | undefined => {
  if (!header) return undefined;
  let at = 0;
  while (at < header.length) {
    const semicolon = header.indexOf(';', at);
    const end = semicolon === -1 ? header.length : semicolon;
    const eq = header.indexOf('=', at);
    if (eq !== -1 && eq < end && header.slice(at, eq).trim() === name) {
      const value = header.slice(eq + 1, end).trim();
      return value.length > 1 && value.startsWith('"') && value.endsWith('"')
        ? value.slice(1, -1)
        : value;
    }
    at = end + 1;
  }
  return undefined;
};

/** Adds a `Set-Cookie` header, keeping those already set. */
export const appendSetCookie = (res: ServerResponse, cookie: string): void => {
  const previous = res.getHeader('Set-Cookie');
  res.setHeader(
    'Set-Cookie',
    previous === undefined
      ? cookie
      : [...(Array.isArray(previous) ? previous : [String(previous)]), cookie],
  );
};
