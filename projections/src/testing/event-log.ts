import {
  type AuctionCommand,
  type CancelAuction,
  type CreateAuction,
  type EditAuction,
  auctionStream,
  categoryStream,
} from '@auction/contracts';
import { type AuctionState, evolve, initialState } from '@auction/engine';
import { decide } from '@auction/engine/testing';
import type { RecordedEvent } from '../runner/projection';

export const T0 = Date.parse('2030-01-01T12:00:00.000Z');
export const iso = (ms: number): string => new Date(ms).toISOString();
const HASH = '0'.repeat(64);

/**
 * A history built through the real decider, so every event in it is one the engine would write:
 * each helper sends a command and appends the events it yields (a refusal throws).
 */
export class EventLog {
  readonly events: RecordedEvent[] = [];
  private readonly states = new Map<string, AuctionState>();
  private readonly revisions = new Map<string, number>();
  private position = 0;
  private commands = 0;

  /** Appends a raw event to any stream (categories, or events the projections should ignore). */
  append(streamId: string, type: string, data: unknown, actorId = 'system'): RecordedEvent {
    const revision = (this.revisions.get(streamId) ?? -1) + 1;
    this.revisions.set(streamId, revision);
    this.position += 1;
    const n = ++this.commands;
    const event: RecordedEvent = {
      id: `event-${this.position}`,
      streamId,
      revision,
      position: this.position,
      type,
      data,
      metadata: { commandId: `c${n}`, actorId, correlationId: `c${n}`, prevHash: HASH, hash: HASH },
      recordedAt: iso(T0 + this.position),
    };
    this.events.push(event);
    return event;
  }

  category(
    categoryId: string,
    name: string,
    description = `All about ${name}`,
    at = T0,
  ): RecordedEvent {
    return this.append(categoryStream(categoryId), 'CategoryCreated', {
      categoryId,
      name,
      description,
      createdBy: 'system',
      at: iso(at),
    });
  }

  /** Decides the command against the auction's state and appends what it yields. */
  send(command: AuctionCommand): RecordedEvent[] {
    const auctionId = command.data.auctionId;
    const state = this.states.get(auctionId) ?? initialState;
    const decision = decide(command, state);
    if (!decision.ok) throw new Error(`${command.type} refused: ${decision.rejection.code}`);
    this.states.set(auctionId, decision.events.reduce(evolve, state));
    return decision.events.map((e) =>
      this.append(auctionStream(auctionId), e.type, e.data, command.metadata.actorId),
    );
  }

  create(
    auctionId: string,
    options: Partial<CreateAuction['data']> & { seller?: string; at?: number } = {},
  ): RecordedEvent[] {
    const { seller = 'seller', at = T0, ...data } = options;
    return this.send({
      type: 'CreateAuction',
      data: {
        auctionId,
        title: `Item ${auctionId}`,
        description: `Description of ${auctionId}`,
        categoryId: 'antiques',
        startingPrice: 10_000,
        endsAt: iso(T0 + 86_400_000),
        image: null,
        ...data,
      },
      metadata: this.meta(seller, at),
    });
  }

  bid(
    auctionId: string,
    bidder: string,
    amount: number,
    at = T0 + 1000,
    bidId?: string,
  ): RecordedEvent[] {
    return this.send({
      type: 'PlaceBid',
      data: { auctionId, bidId: bidId ?? `bid-${this.commands + 1}`, amount },
      metadata: this.meta(bidder, at),
    });
  }

  editBid(
    auctionId: string,
    bidder: string,
    bidId: string,
    amount: number,
    at = T0 + 2000,
  ): RecordedEvent[] {
    return this.send({
      type: 'EditBid',
      data: { auctionId, bidId, amount },
      metadata: this.meta(bidder, at),
    });
  }

  retract(auctionId: string, bidder: string, bidId: string, at = T0 + 2000): RecordedEvent[] {
    return this.send({
      type: 'RetractBid',
      data: { auctionId, bidId },
      metadata: this.meta(bidder, at),
    });
  }

  edit(
    auctionId: string,
    changes: Omit<EditAuction['data'], 'auctionId'>,
    seller = 'seller',
    at = T0 + 500,
  ): RecordedEvent[] {
    return this.send({
      type: 'EditAuction',
      data: { auctionId, ...changes },
      metadata: this.meta(seller, at),
    });
  }

  cancel(
    auctionId: string,
    reason: CancelAuction['data']['reason'] = 'seller',
    seller = 'seller',
    at = T0 + 3000,
  ): RecordedEvent[] {
    return this.send({
      type: 'CancelAuction',
      data: { auctionId, reason },
      metadata: this.meta(seller, at),
    });
  }

  /** Closes at the auction's end time (or `at`). */
  close(auctionId: string, at?: number): RecordedEvent[] {
    const endsAt = this.states.get(auctionId)?.endsAt;
    const when = at ?? (endsAt ? Date.parse(endsAt) : T0 + 86_400_000);
    return this.send({
      type: 'CloseAuction',
      data: { auctionId },
      metadata: this.meta('system', when),
    });
  }

  private meta(actorId: string, at: number) {
    const n = this.commands + 1;
    return { commandId: `cmd-${n}`, correlationId: `corr-${n}`, actorId, at: iso(at) };
  }
}
