import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '@auction/contracts';
import { eventHash } from '@auction/engine/testing';
import { sellerView, toAuditEvent } from './audit-events';
import { checkShownChain } from './audit-verify';

const STREAM = 'auction-a1';
const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 12, minute)).toISOString();
const genesis = createHash('sha256').update(STREAM).digest('hex');

/** A stream sealed as before commitments: every field hashed as it is, no salt. */
const legacyStream = (datas: { type: string; data: Record<string, unknown> }[]): AuditEvent[] => {
  let prevHash = genesis;
  return datas.map(({ type, data }, revision) => {
    const metadata = { actorId: 'u1', commandId: `c${revision}`, correlationId: 'k', prevHash };
    const hash = eventHash({ streamId: STREAM, revision, type, data, metadata });
    prevHash = hash;
    return toAuditEvent({
      id: `e${revision}`,
      streamId: STREAM,
      revision,
      position: revision,
      type,
      data,
      metadata: { ...metadata, hash },
      recordedAt: at(revision),
    });
  });
};

const bid = (bidId: string, amount: number, maxAmount?: number) => ({
  type: 'BidPlaced',
  data: {
    amount,
    at: at(1),
    auctionId: 'a1',
    bidId,
    bidderId: 'u2',
    ...(maxAmount === undefined ? {} : { maxAmount }),
  },
});

describe('a seller’s view of events sealed before commitments', () => {
  const stored = legacyStream([
    { type: 'AuctionCreated', data: { auctionId: 'a1', at: at(0), reservePrice: 50_000 } },
    bid('b1', 10_000),
    bid('b2', 12_000, 53_737),
    bid('b3', 13_000),
  ]);
  const shown = stored.map(sellerView());

  it('withholds every hash from the first event whose hash is a function of a maximum', () => {
    expect(shown.map((event) => [event.hash !== null, event.prevHash !== null])).toEqual([
      [true, true],
      [true, true],
      [false, true],
      [false, false],
    ]);
    expect(JSON.stringify(shown.slice(2))).not.toMatch(/53737/);
    expect(JSON.stringify(shown.slice(3))).not.toMatch(/[0-9a-f]{64}/);
    // The seller's own reserve is theirs to see.
    expect(shown[0]?.data).toMatchObject({ reservePrice: 50_000 });
  });

  it('still lets the seller check the chain up to there', () => {
    expect(checkShownChain(stored.map(sellerView()))).toMatchObject({
      ok: true,
      length: 2,
      withheldFrom: 2,
    });
  });

  it('shows a stream without maxima whole', () => {
    const plain = legacyStream([bid('b1', 10_000), bid('b2', 12_000)]);
    expect(plain.map(sellerView())).toEqual(
      plain.map((event) => ({ ...event, redacted: ['maxAmount'] })),
    );
  });
});
