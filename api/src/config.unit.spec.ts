import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('config', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: resolve('./data'),
      TRUST_PROXY: false,
      GOOGLE_ISSUER: 'https://accounts.google.com',
      RATE_LIMIT_LOGIN: 10,
    });
    expect(loadConfig({}).GOOGLE_CLIENT_ID).toBeUndefined();
  });

  it('reads settings from the environment', () => {
    expect(
      loadConfig({
        PORT: '8080',
        DATA_DIR: '/tmp/x',
        TRUST_PROXY: 'true',
        GOOGLE_CLIENT_ID: ' id ',
      }),
    ).toMatchObject({ PORT: 8080, DATA_DIR: '/tmp/x', TRUST_PROXY: true, GOOGLE_CLIENT_ID: 'id' });
  });

  it('names every bad setting in one error', () => {
    expect(() =>
      loadConfig({
        PORT: 'eighty',
        DATA_DIR: '',
        PUBLIC_ORIGIN: 'ftp://x',
        SESSION_SECRET: 'short',
      }),
    ).toThrow(
      [
        'Invalid configuration:',
        '  PORT: PORT must be a whole number from 0 to 65535',
        '  DATA_DIR: DATA_DIR must name a directory',
        '  PUBLIC_ORIGIN: PUBLIC_ORIGIN must be an http(s) URL such as https://auctions.example.com',
        '  SESSION_SECRET: SESSION_SECRET must be at least 32 characters',
      ].join('\n'),
    );
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow('TRUST_PROXY must be true or false');
    expect(() => loadConfig({ RATE_LIMIT_BIDS: '0' })).toThrow(
      'RATE_LIMIT_BIDS must be a whole number from 1 to 1000000',
    );
  });
});
