import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('verifies the password it hashed and refuses any other', async () => {
    const stored = await hashPassword('Secret123');
    expect(await verifyPassword('Secret123', stored)).toBe(true);
    expect(await verifyPassword('Secret124', stored)).toBe(false);
    expect(await verifyPassword('secret123', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash: the same password hashes differently twice, and both verify', async () => {
    const [first, second] = await Promise.all([
      hashPassword('Secret123'),
      hashPassword('Secret123'),
    ]);
    expect(first).not.toBe(second);
    expect(await verifyPassword('Secret123', first)).toBe(true);
    expect(await verifyPassword('Secret123', second)).toBe(true);
  });

  it('names scrypt and its cost parameters in the stored string', async () => {
    const [scheme, n, r, p, salt, hash, ...rest] = (await hashPassword('Secret123')).split('$');
    expect({ scheme, n, r, p, rest }).toEqual({
      scheme: 'scrypt',
      n: '32768',
      r: '8',
      p: '1',
      rest: [],
    });
    expect(Buffer.from(salt ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash ?? '', 'base64url')).toHaveLength(32);
  });

  it('refuses a malformed stored string without throwing', async () => {
    const stored = await hashPassword('Secret123');
    const [, n, r, p, salt, hash] = stored.split('$');
    const malformed = [
      '',
      'Secret123',
      'scrypt',
      `bcrypt$${n}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${n}$${r}$${p}$${salt}`,
      `scrypt$${n}$${r}$${p}$${salt}$`,
      `scrypt$${n}$${r}$${p}$${salt}$${hash?.slice(0, 20)}`,
    ];
    for (const s of malformed) expect(await verifyPassword('Secret123', s), s).toBe(false);
  });
});

describe('verifyPassword on damaged stored hashes', () => {
  it('answers false, never throws, for impossible cost parameters or extra parts', async () => {
    const good = await hashPassword('Secret123');
    const [, , r, p, salt, hash] = good.split('$');
    for (const n of ['abc', '1000', String(2 ** 30)]) {
      expect(await verifyPassword('Secret123', ['scrypt', n, r, p, salt, hash].join('$'))).toBe(
        false,
      );
    }
    expect(await verifyPassword('Secret123', `${good}$extra`)).toBe(false);
  });
});
