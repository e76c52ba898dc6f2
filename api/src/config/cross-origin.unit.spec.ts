import { describe, expect, it } from 'vitest';
import { anyCrossSite, isCrossSite, parseOrigin } from './cross-origin';

describe('cross-origin', () => {
  it('judges sites as SameSite does: scheme and registrable domain, exact host for IPs and localhost', () => {
    const same: [string, string][] = [
      ['https://example.com', 'https://example.com:8443'],
      ['https://api.example.com', 'https://example.com'],
      ['https://example.com', 'https://shop.eu.example.com'],
      ['http://localhost:3000', 'http://localhost:5173'],
      ['http://127.0.0.1:3000', 'http://127.0.0.1:5173'],
    ];
    const cross: [string, string][] = [
      ['https://example.com', 'http://example.com'],
      ['https://example.com', 'https://example.org'],
      ['https://example.com', 'https://notexample.com'],
      ['http://localhost:3000', 'http://127.0.0.1:3000'],
      ['http://127.0.0.1:3000', 'http://127.0.0.2:3000'],
      ['http://[::1]:3000', 'http://localhost:3000'],
      ['http://10.0.0.1', 'http://10.0.0.2'],
      // Without a public-suffix list, siblings count as other sites (SameSite=None still works).
      ['https://api.example.com', 'https://www.example.com'],
    ];
    for (const [a, b] of same) {
      expect(isCrossSite(a, b), `${a} ${b}`).toBe(false);
      expect(isCrossSite(b, a), `${b} ${a}`).toBe(false);
    }
    for (const [a, b] of cross) {
      expect(isCrossSite(a, b), `${a} ${b}`).toBe(true);
      expect(isCrossSite(b, a), `${b} ${a}`).toBe(true);
    }
    expect(anyCrossSite('https://example.com', ['https://app.example.com'])).toBe(false);
    expect(anyCrossSite('https://example.com', ['https://app.example.com', 'http://x.com'])).toBe(
      true,
    );
  });

  it('takes an origin as browsers send it, and nothing else', () => {
    expect(parseOrigin('HTTPS://App.Example.COM:443/')).toEqual({
      origin: 'https://app.example.com',
    });
    expect(parseOrigin('http://[::1]:5173')).toEqual({ origin: 'http://[::1]:5173' });
    for (const bad of [
      '',
      '*',
      'null',
      'example.com',
      'ws://x.com',
      'https://x.com/a',
      'https://x.com#a',
    ])
      expect(parseOrigin(bad), bad).toHaveProperty('error');
  });
});
