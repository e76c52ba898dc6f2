import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EventMetadata } from '@auction/contracts';
import {
  SECRET_FIELDS,
  canonicalJson,
  commitmentOf,
  eventHash,
  genesisHash,
  verifyChain,
} from './hash-chain';
import type { StoredLink } from './hash-chain';
import { eventIdFor, sealEvents } from './seal';
import type { CommandIds } from './seal';

const STREAM = 'auction-a1';
const T0 = Date.UTC(2030, 0, 1);
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const ids = (commandId: string, actorId: string): CommandIds => ({
  commandId,
  actorId,
  correlationId: `k-${commandId}`,
});

const commands: { ids: CommandIds; event: { type: string; data: Record<string, unknown> } }[] = [
  {
    ids: ids('c1', 'seller'),
    event: {
      type: 'AuctionCreated',
      data: {
        auctionId: 'a1',
        sellerId: 'seller',
        title: 'Brass lamp',
        description: 'A 1920s brass desk lamp',
        categoryId: 'lighting',
        startingPrice: 10_000,
        endsAt: at(60),
        image: null,
        at: at(0),
      },
    },
  },
  {
    ids: ids('c2', 'alice'),
    event: {
      type: 'BidPlaced',
      data: { auctionId: 'a1', bidId: 'b1', bidderId: 'alice', amount: 10_000, at: at(1) },
    },
  },
  {
    ids: ids('c3', 'bob'),
    event: {
      type: 'BidPlaced',
      data: { auctionId: 'a1', bidId: 'b2', bidderId: 'bob', amount: 10_100, at: at(2) },
    },
  },
];

interface Stored extends StoredLink {
  readonly id: string;
  readonly data: Record<string, unknown>;
}

const sealStream = (streamId = STREAM): Stored[] => {
  const stored: Stored[] = [];
  let head = genesisHash(streamId);
  for (const command of commands) {
    const batch = sealEvents(streamId, stored.length - 1, head, [command.event], command.ids);
    head = batch.headHash;
    for (const sealed of batch.events) {
      stored.push({
        id: sealed.id,
        streamId,
        revision: stored.length,
        type: sealed.type,
        data: sealed.data as Record<string, unknown>,
        metadata: sealed.metadata,
      });
    }
  }
  return stored;
};

const metadataOf = (link: StoredLink): EventMetadata => EventMetadata.parse(link.metadata);

const withData = (link: Stored, changes: Record<string, unknown>): Stored => ({
  ...link,
  data: { ...link.data, ...changes },
});

const replaceAt = (links: Stored[], index: number, link: Stored): Stored[] =>
  links.map((original, i) => (i === index ? link : original));

describe('canonicalJson', () => {
  it('writes the same text whatever the key order, at every level', () => {
    const a = { b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } };
    const b = { a: { c: 'x', d: [1, { x: 1, y: 2 }] }, b: 1 };

    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"c":"x","d":[1,{"x":1,"y":2}]},"b":1}');
  });

  it('drops undefined properties, as the stored JSON does', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
  });

  it.each([
    [{ amount: 10_000 }, { amount: 10_001 }],
    [{ amount: 10_000 }, { amount: '10000' }],
    [{ image: null }, {}],
    [{ a: 1 }, { a: 1, b: 2 }],
    [
      [1, 2],
      [2, 1],
    ],
    [{ a: { b: 1 } }, { a: { b: 2 } }],
    [{ a: 'x', b: 'y' }, { a: 'x","b":"y' }],
    ['x', ['x']],
  ])('tells %j from %j', (left, right) => {
    expect(canonicalJson(left)).not.toBe(canonicalJson(right));
  });
});

describe('sealEvents', () => {
  it('seals a chain that verifies', () => {
    const stored = sealStream();

    expect(verifyChain(STREAM, stored)).toEqual({
      ok: true,
      length: 3,
      headHash: metadataOf(stored[2] as Stored).hash,
    });
  });

  it('links the first event to the stream and each next one to the hash before it', () => {
    const [first, second, third] = sealStream().map(metadataOf);

    expect(first?.prevHash).toBe(genesisHash(STREAM));
    expect(second?.prevHash).toBe(first?.hash);
    expect(third?.prevHash).toBe(second?.hash);
  });

  it('seals each event with the hash of its content', () => {
    for (const link of sealStream()) {
      const { hash, ...rest } = metadataOf(link);
      expect(hash).toBe(eventHash({ ...link, metadata: rest }));
    }
  });

  it('keeps the command ids in the metadata', () => {
    expect(metadataOf(sealStream()[1] as Stored)).toMatchObject({
      commandId: 'c2',
      actorId: 'alice',
      correlationId: 'k-c2',
    });
  });

  it('starts each stream from its own genesis hash', () => {
    expect(genesisHash('auction-a1')).not.toBe(genesisHash('auction-a2'));
  });

  it('gives UUID-shaped ids, deterministic per stream, command and index', () => {
    const stored = sealStream();

    for (const link of stored) expect(link.id).toMatch(UUID);
    expect(sealStream().map((link) => link.id)).toEqual(stored.map((link) => link.id));
    expect(stored.map((link) => link.id)).toEqual([
      eventIdFor(STREAM, 'c1', 0),
      eventIdFor(STREAM, 'c2', 0),
      eventIdFor(STREAM, 'c3', 0),
    ]);
  });

  it('gives different ids in different streams', () => {
    const here = sealStream('auction-a1').map((link) => link.id);
    const there = sealStream('auction-a2').map((link) => link.id);

    for (const id of there) expect(here).not.toContain(id);
  });

  it('gives each event of one command its own id', () => {
    const events = commands.map((command) => command.event);
    const batch = sealEvents(STREAM, -1, genesisHash(STREAM), events, ids('c1', 'seller'));

    expect(new Set(batch.events.map((event) => event.id)).size).toBe(3);
    expect(batch.events.map((event) => event.id)).toEqual([
      eventIdFor(STREAM, 'c1', 0),
      eventIdFor(STREAM, 'c1', 1),
      eventIdFor(STREAM, 'c1', 2),
    ]);
  });
});

describe('verifyChain', () => {
  it('accepts an empty stream', () => {
    expect(verifyChain(STREAM, [])).toEqual({ ok: true, length: 0, headHash: genesisHash(STREAM) });
  });

  it('names the middle event when its data was changed', () => {
    const stored = sealStream();
    const tampered = replaceAt(stored, 1, withData(stored[1] as Stored, { amount: 100 }));

    expect(verifyChain(STREAM, tampered)).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'hash-mismatch',
    });
  });

  it('names the last event when its data was changed', () => {
    const stored = sealStream();
    const tampered = replaceAt(stored, 2, withData(stored[2] as Stored, { bidderId: 'mallory' }));

    expect(verifyChain(STREAM, tampered)).toEqual({
      ok: false,
      brokenAt: 2,
      reason: 'hash-mismatch',
    });
  });

  it('names an event whose type was changed', () => {
    const stored = sealStream();
    const tampered = replaceAt(stored, 1, { ...(stored[1] as Stored), type: 'BidEdited' });

    expect(verifyChain(STREAM, tampered)).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'hash-mismatch',
    });
  });

  it('names an event whose acting user was changed', () => {
    const stored = sealStream();
    const link = stored[1] as Stored;
    const tampered = replaceAt(stored, 1, {
      ...link,
      metadata: { ...metadataOf(link), actorId: 'mallory' },
    });

    expect(verifyChain(STREAM, tampered)).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'hash-mismatch',
    });
  });

  it('names the next event when a tampered event was sealed again', () => {
    const stored = sealStream();
    const link = stored[1] as Stored;
    const { prevHash, commandId, actorId, correlationId } = metadataOf(link);
    const data = { ...link.data, amount: 100 };
    const [resealed] = sealEvents(STREAM, 0, prevHash, [{ type: link.type, data }], {
      commandId,
      actorId,
      correlationId,
    }).events;
    const tampered = replaceAt(stored, 1, { ...link, data, metadata: resealed?.metadata });

    expect(verifyChain(STREAM, tampered.slice(0, 2))).toMatchObject({ ok: true });
    expect(verifyChain(STREAM, tampered)).toEqual({
      ok: false,
      brokenAt: 2,
      reason: 'prev-hash-mismatch',
    });
  });

  it('names the gap when an event was removed', () => {
    const stored = sealStream();

    expect(verifyChain(STREAM, [stored[0] as Stored, stored[2] as Stored])).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'revision-gap',
    });
  });

  it('names the gap when the first event was removed', () => {
    expect(verifyChain(STREAM, sealStream().slice(1))).toEqual({
      ok: false,
      brokenAt: 0,
      reason: 'revision-gap',
    });
  });

  it('names the first position out of order when two events were swapped', () => {
    const [first, second, third] = sealStream() as [Stored, Stored, Stored];

    expect(verifyChain(STREAM, [first, third, second])).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'revision-gap',
    });
  });

  it('names the first position when two events swapped contents but kept their revisions', () => {
    const [first, second, third] = sealStream() as [Stored, Stored, Stored];
    const swapped = [first, { ...third, revision: 1 }, { ...second, revision: 2 }];

    expect(verifyChain(STREAM, swapped)).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'prev-hash-mismatch',
    });
  });

  it('names an event of another stream', () => {
    const stored = sealStream();
    const foreign = sealStream('auction-a2')[1] as Stored;

    expect(verifyChain(STREAM, replaceAt(stored, 1, foreign))).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'revision-gap',
    });
  });

  it.each([
    ['missing', () => undefined],
    ['null', () => null],
    ['a string', () => 'garbled'],
    [
      'without a hash',
      (metadata: EventMetadata) => ({ ...metadata, hash: undefined as unknown as string }),
    ],
    ['with a garbled hash', (metadata: EventMetadata) => ({ ...metadata, hash: 'not-a-hash' })],
    ['with a garbled prevHash', (metadata: EventMetadata) => ({ ...metadata, prevHash: 'XYZ' })],
    ['without an actor', (metadata: EventMetadata) => ({ ...metadata, actorId: '' })],
  ])('names an event whose metadata is %s', (_, garble: (metadata: EventMetadata) => unknown) => {
    const stored = sealStream();
    const link = stored[1] as Stored;
    const tampered = replaceAt(stored, 1, { ...link, metadata: garble(metadataOf(link)) });

    expect(verifyChain(STREAM, tampered)).toEqual({
      ok: false,
      brokenAt: 1,
      reason: 'metadata-invalid',
    });
  });
});

describe('secret fields under a salted commitment', () => {
  const MAX = 53_737;
  const secretStream = (): Stored[] => {
    const stored = sealStream();
    const head = metadataOf(stored[2] as Stored).hash;
    const [raised] = sealEvents(
      STREAM,
      2,
      head,
      [
        {
          type: 'BidMaximumRaised',
          data: {
            at: at(3),
            auctionId: 'a1',
            bidId: 'b2',
            bidderId: 'bob',
            maxAmount: MAX,
            previousMaxAmount: 10_100,
          },
        },
      ],
      ids('c4', 'bob'),
    ).events;
    if (!raised) throw new Error('nothing sealed');
    return [
      ...stored,
      {
        id: raised.id,
        streamId: STREAM,
        revision: 3,
        type: raised.type,
        data: raised.data as Record<string, unknown>,
        metadata: raised.metadata,
      },
    ];
  };

  /** The event as a reader who may not see secrets gets it: no secret field, no salt, the commitment. */
  const shown = (link: Stored): Stored => {
    const { salt, ...metadata } = metadataOf(link);
    const data = { ...link.data };
    for (const field of SECRET_FIELDS) delete data[field];
    return {
      ...link,
      data,
      metadata: { ...metadata, commitment: commitmentOf(salt ?? '', link.data) },
    };
  };

  it('commits to the canonical JSON of the salt and the secret fields present', () => {
    const salt = 'ab'.repeat(16);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const cases: [unknown, Record<string, unknown>][] = [
      [{ amount: 1 }, {}],
      [{ maxAmount: 5, amount: 1 }, { maxAmount: 5 }],
      [
        { reservePrice: null, previousMaxAmount: 3, maxAmount: 4 },
        { maxAmount: 4, previousMaxAmount: 3, reservePrice: null },
      ],
      [null, {}],
    ];
    for (const [data, secrets] of cases)
      expect(commitmentOf(salt, data)).toBe(sha(canonicalJson({ salt, secrets })));
  });

  it('seals every event with its own 128-bit salt', () => {
    const salts = secretStream().map((link) => metadataOf(link).salt);
    for (const salt of salts) expect(salt).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(salts).size).toBe(salts.length);
  });

  it('verifies the stored stream, and the stream as shown without its secrets', () => {
    const stored = secretStream();
    const verdict = verifyChain(STREAM, stored);
    expect(verdict).toMatchObject({ ok: true, length: 4 });
    expect(verifyChain(STREAM, stored.map(shown), { shown: true })).toEqual(verdict);
  });

  it('gives no guess at a maximum a way to meet the hash of the event that hides it', () => {
    const link = shown(secretStream()[3] as Stored);
    const { hash, commitment: _commitment, ...rest } = metadataOf(link);
    // The attack that recovered a maximum from the plain hash: every cent value near the truth.
    const found: number[] = [];
    for (let guess = MAX - 2_000; guess <= MAX + 2_000; guess++) {
      const data = { ...link.data, maxAmount: guess, previousMaxAmount: 10_100 };
      if (eventHash({ ...link, data, metadata: rest }) === hash) found.push(guess);
    }
    expect(found).toEqual([]);
  });

  it('breaks where a secret field, or its salt, was changed in the store', () => {
    const stored = secretStream();
    const link = stored[3] as Stored;
    const salt = '0'.repeat(32);
    for (const tampered of [
      withData(link, { maxAmount: MAX - 1 }),
      { ...link, metadata: { ...metadataOf(link), salt } },
    ])
      expect(verifyChain(STREAM, replaceAt(stored, 3, tampered))).toEqual({
        ok: false,
        brokenAt: 3,
        reason: 'hash-mismatch',
      });
  });

  it('takes a commitment in place of the salt only in an event as shown', () => {
    const stored = secretStream();
    const asShown = replaceAt(stored, 3, shown(stored[3] as Stored));
    expect(verifyChain(STREAM, asShown)).toEqual({
      ok: false,
      brokenAt: 3,
      reason: 'metadata-invalid',
    });
    const both = {
      ...(stored[3] as Stored),
      metadata: { ...metadataOf(stored[3] as Stored), commitment: '0'.repeat(64) },
    };
    expect(verifyChain(STREAM, replaceAt(stored, 3, both), { shown: true })).toMatchObject({
      ok: false,
      reason: 'metadata-invalid',
    });
  });

  it('still verifies events sealed before commitments (no salt: every field hashed as it is)', () => {
    const legacy: Stored[] = [];
    let prevHash = genesisHash(STREAM);
    for (const [revision, { ids: command, event }] of commands.entries()) {
      const metadata = { ...command, prevHash };
      const hash = eventHash({ streamId: STREAM, revision, ...event, metadata });
      legacy.push({
        id: `e${revision}`,
        streamId: STREAM,
        revision,
        ...event,
        metadata: { ...metadata, hash },
      });
      prevHash = hash;
    }
    expect(verifyChain(STREAM, legacy)).toMatchObject({ ok: true, length: 3 });
    expect(
      verifyChain(STREAM, replaceAt(legacy, 1, withData(legacy[1] as Stored, { amount: 1 }))),
    ).toMatchObject({
      ok: false,
      brokenAt: 1,
    });
  });
});
