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

  it("gives new auctions the spec's bidding rules by default, and the operator's when set", () => {
    expect(loadConfig({})).toMatchObject({
      DEFAULT_INCREMENTS: 'one-dollar',
      DEFAULT_SOFT_CLOSE: false,
    });
    expect(loadConfig({ DEFAULT_INCREMENTS: 'table', DEFAULT_SOFT_CLOSE: 'true' })).toMatchObject({
      DEFAULT_INCREMENTS: 'table',
      DEFAULT_SOFT_CLOSE: true,
    });
    expect(() => loadConfig({ DEFAULT_INCREMENTS: 'percent' })).toThrow(
      'DEFAULT_INCREMENTS: DEFAULT_INCREMENTS must be one-dollar or table',
    );
    expect(() => loadConfig({ DEFAULT_SOFT_CLOSE: 'on' })).toThrow(
      'DEFAULT_SOFT_CLOSE: DEFAULT_SOFT_CLOSE must be true or false',
    );
  });

  it('reads CORS_ORIGINS as a list of origins, each checked, and leaves it unset by default', () => {
    expect(loadConfig({}).CORS_ORIGINS).toBeUndefined();
    expect(loadConfig({ CORS_ORIGINS: ' ' }).CORS_ORIGINS).toBeUndefined();
    expect(
      loadConfig({
        CORS_ORIGINS: 'http://localhost:5173, https://App.Example.com/,https://app.example.com:443',
      }).CORS_ORIGINS,
    ).toEqual(['http://localhost:5173', 'https://app.example.com']);
    for (const bad of [
      '*',
      'null',
      'app.example.com',
      'ftp://app.example.com',
      'https://app.example.com/path',
      'https://app.example.com/?x=1',
      'https://user:secret@app.example.com',
      'https://a.example.com,,https://b.example.com',
    ])
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(
        /CORS_ORIGINS: CORS_ORIGINS must list http\(s\) origins such as https:\/\/app\.example\.com/,
      );
  });

  it('refuses origins of another site unless PUBLIC_ORIGIN is a secure context', () => {
    const error =
      'CORS_ORIGINS: CORS_ORIGINS names another site than PUBLIC_ORIGIN: its session cookies must be SameSite=None; Secure, which needs PUBLIC_ORIGIN on https (or on localhost, 127.0.0.1 or [::1])';
    expect(() =>
      loadConfig({ CORS_ORIGINS: 'https://app.example.com', PUBLIC_ORIGIN: 'http://example.org' }),
    ).toThrow(error);
    // The same site over plain http (Lax cookies): allowed.
    expect(
      loadConfig({
        CORS_ORIGINS: 'http://example.org:8080',
        PUBLIC_ORIGIN: 'http://api.example.org',
      }).CORS_ORIGINS,
    ).toEqual(['http://example.org:8080']);
    // Another site with https, or with a loopback origin (browsers' secure contexts): allowed.
    for (const origin of [
      'https://api.example.org',
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      undefined,
    ])
      expect(
        loadConfig({
          CORS_ORIGINS: 'https://app.example.com',
          ...(origin ? { PUBLIC_ORIGIN: origin } : {}),
        }).CORS_ORIGINS,
      ).toEqual(['https://app.example.com']);
  });

  it('picks the distributed stores only when their settings are given', () => {
    const embedded = loadConfig({ MONGODB_URL: ' ', EVENTSTORE_CONNECTION_STRING: '' });
    expect(embedded.MONGODB_URL).toBeUndefined();
    expect(embedded.EVENTSTORE_CONNECTION_STRING).toBeUndefined();
    expect(embedded.MONGODB_DB).toBe('auction');
    expect(
      loadConfig({
        MONGODB_URL: 'mongodb://db:27017/?replicaSet=rs0',
        MONGODB_DB: 'market',
        EVENTSTORE_CONNECTION_STRING: 'esdb://events:2113?tls=false',
      }),
    ).toMatchObject({
      MONGODB_URL: 'mongodb://db:27017/?replicaSet=rs0',
      MONGODB_DB: 'market',
      EVENTSTORE_CONNECTION_STRING: 'esdb://events:2113?tls=false',
    });
    expect(() =>
      loadConfig({
        MONGODB_URL: 'localhost:27017',
        MONGODB_DB: 'a.b',
        EVENTSTORE_CONNECTION_STRING: 'http://localhost:2113',
      }),
    ).toThrow(
      [
        'Invalid configuration:',
        '  EVENTSTORE_CONNECTION_STRING: EVENTSTORE_CONNECTION_STRING must be a URL such as esdb://localhost:2113?tls=false',
        '  MONGODB_URL: MONGODB_URL must be a URL such as mongodb://localhost:27017',
        '  MONGODB_DB: MONGODB_DB must be 1 to 63 letters, digits, - or _',
      ].join('\n'),
    );
  });

  it('writes read-model batches to MongoDB in bulk unless a number of statements per command is set', () => {
    expect(loadConfig({}).MONGODB_STATEMENTS_PER_COMMAND).toBeUndefined();
    expect(loadConfig({ MONGODB_STATEMENTS_PER_COMMAND: ' ' }).MONGODB_STATEMENTS_PER_COMMAND).toBe(
      undefined,
    );
    expect(loadConfig({ MONGODB_STATEMENTS_PER_COMMAND: '8' }).MONGODB_STATEMENTS_PER_COMMAND).toBe(
      8,
    );
    expect(() => loadConfig({ MONGODB_STATEMENTS_PER_COMMAND: '0' })).toThrow(
      'MONGODB_STATEMENTS_PER_COMMAND must be a whole number from 1 to 100000',
    );
  });

  it('runs the projections on a thread of their own unless told inline', () => {
    expect(loadConfig({}).PROJECTIONS_THREAD).toBe('worker');
    expect(loadConfig({ PROJECTIONS_THREAD: 'inline' }).PROJECTIONS_THREAD).toBe('inline');
    expect(() => loadConfig({ PROJECTIONS_THREAD: 'thread' })).toThrow(
      'PROJECTIONS_THREAD: PROJECTIONS_THREAD must be worker or inline',
    );
  });

  it('limits watches per socket and per address, with sane defaults', () => {
    expect(loadConfig({})).toMatchObject({
      WATCH_LIMIT_PER_SOCKET: 50,
      WATCH_RATE_PER_SOCKET: 20,
      WATCH_LIMIT_PER_ADDRESS: 500,
      WATCH_RATE_PER_ADDRESS: 100,
    });
    expect(loadConfig({ WATCH_RATE_PER_ADDRESS: '7' }).WATCH_RATE_PER_ADDRESS).toBe(7);
    expect(() => loadConfig({ WATCH_LIMIT_PER_SOCKET: '0' })).toThrow(
      'WATCH_LIMIT_PER_SOCKET must be a whole number from 1 to 1000000',
    );
  });

  it('bounds slow bodies and uploads in progress, with sane defaults', () => {
    expect(loadConfig({})).toMatchObject({ BODY_TIMEOUT_MS: 30_000, UPLOADS_IN_PROGRESS: 10 });
    expect(loadConfig({ BODY_TIMEOUT_MS: '500', UPLOADS_IN_PROGRESS: '3' })).toMatchObject({
      BODY_TIMEOUT_MS: 500,
      UPLOADS_IN_PROGRESS: 3,
    });
    expect(() => loadConfig({ BODY_TIMEOUT_MS: '0' })).toThrow(
      'BODY_TIMEOUT_MS must be a whole number from 100 to 600000',
    );
    expect(() => loadConfig({ UPLOADS_IN_PROGRESS: 'many' })).toThrow(
      'UPLOADS_IN_PROGRESS must be a whole number from 1 to 10000',
    );
  });

  it('limits new auctions and uploads per user and per address, with defaults no real user meets', () => {
    expect(loadConfig({})).toMatchObject({
      RATE_LIMIT_AUCTIONS: 100,
      RATE_LIMIT_AUCTIONS_PER_ADDRESS: 500,
      RATE_LIMIT_UPLOADS: 200,
      RATE_LIMIT_UPLOADS_PER_ADDRESS: 1000,
      RATE_LIMIT_UPLOAD_MB: 1000,
      RATE_LIMIT_UPLOAD_MB_PER_ADDRESS: 5000,
    });
    expect(loadConfig({ RATE_LIMIT_UPLOAD_MB: '3' }).RATE_LIMIT_UPLOAD_MB).toBe(3);
    expect(() => loadConfig({ RATE_LIMIT_AUCTIONS: '0' })).toThrow(
      'RATE_LIMIT_AUCTIONS must be a whole number from 1 to 1000000',
    );
  });
});
