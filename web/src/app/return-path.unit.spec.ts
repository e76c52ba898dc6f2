import { describe, expect, it } from 'vitest';
import { returnPath } from './return-path';

describe('where a login lands', () => {
  it('returns to the auction the visitor was about to bid on', () => {
    expect(returnPath({ from: '/auction/3f2c9a1e-7b7d-4c1e-9f5a-0e6d2b8c4a11' })).toBe(
      '/auction/3f2c9a1e-7b7d-4c1e-9f5a-0e6d2b8c4a11',
    );
  });

  it.each([
    ['no state', null],
    ['a protected dashboard page', { from: '/dashboard/history' }],
    ['a stale audit link', { from: '/audit/auction/gone?step=9' }],
    ['another host', { from: '//evil.example/auction/x' }],
    ['an auction path with more after it', { from: '/auction/x/../../admin' }],
    ['not a string', { from: 42 }],
  ])('goes to the profile after %s', (_, state) => {
    expect(returnPath(state)).toBe('/dashboard/my-profile');
  });
});
