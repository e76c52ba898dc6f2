import { describe, expect, it } from 'vitest';
import {
  MINIMUM_SERVER_VERSION,
  requireSupportedServer,
  toSafeNumber,
  withoutCredentials,
} from './eventstoredb-event-store';

describe('toSafeNumber', () => {
  const max = BigInt(Number.MAX_SAFE_INTEGER);

  it('converts positions and revisions up to Number.MAX_SAFE_INTEGER exactly', () => {
    expect(toSafeNumber(0n, 'position')).toBe(0);
    expect(toSafeNumber(-1n, 'revision')).toBe(-1);
    expect(toSafeNumber(123_456_789_012n, 'position')).toBe(123_456_789_012);
    expect(toSafeNumber(max, 'position')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('throws beyond Number.MAX_SAFE_INTEGER, naming the value', () => {
    expect(() => toSafeNumber(max + 1n, 'position')).toThrow(
      'EventStoreDB position 9007199254740992 is beyond Number.MAX_SAFE_INTEGER (2^53 - 1)',
    );
    expect(() => toSafeNumber(2n ** 64n - 1n, 'revision')).toThrow(/revision 18446744073709551615/);
    expect(() => toSafeNumber(-max - 1n, 'position')).toThrow(/beyond Number.MAX_SAFE_INTEGER/);
  });
});

describe('withoutCredentials', () => {
  it('drops the user and password and keeps everything else', () => {
    expect(withoutCredentials('esdb://admin:changeit@localhost:2113?tls=false')).toBe(
      'esdb://localhost:2113?tls=false',
    );
    expect(withoutCredentials(' esdb+discover://ops:p%40ss:w0rd@cluster.local:2113 ')).toBe(
      'esdb+discover://cluster.local:2113',
    );
    expect(withoutCredentials('esdb://a:1,b:2,c:3?nodePreference=leader')).toBe(
      'esdb://a:1,b:2,c:3?nodePreference=leader',
    );
  });
});

describe('requireSupportedServer', () => {
  const where = 'esdb://localhost:2113';

  it(`accepts ${MINIMUM_SERVER_VERSION} and later`, () => {
    for (const version of ['23.10.0', '23.10.7', '24.2.0', '24.10.1', '25.0.0', '26.1.0']) {
      expect(() => requireSupportedServer(version, where)).not.toThrow();
    }
  });

  it('refuses earlier servers and unknown versions, naming the minimum', () => {
    for (const version of ['23.6.0', '22.10.3', '21.10.0', '5.0.11', 'unknown', '', 'x.y']) {
      expect(() => requireSupportedServer(version, where)).toThrow(
        new RegExp(`^EventStoreDB at ${where} .*; this adapter needs 23\\.10 or later$`),
      );
    }
    expect(() => requireSupportedServer('22.10.3', where)).toThrow(/reports version 22\.10\.3;/);
  });
});
