import { AuditEvent, AuditState, AuditTimeline, AuditVerification } from '@auction/contracts';
import { z } from 'zod';
import { call } from '../../lib/api-client';

const base = (auctionId: string) => `/audit/auctions/${encodeURIComponent(auctionId)}`;

export const auditApi = {
  events: (auctionId: string) =>
    call(`${base(auctionId)}/events`, z.object({ events: z.array(AuditEvent) })),
  timeline: (auctionId: string) =>
    call(`${base(auctionId)}/timeline`, z.object({ timeline: AuditTimeline })),
  stateAt: (auctionId: string, revision: number) =>
    call(`${base(auctionId)}/state`, z.object({ state: AuditState }), { query: { revision } }),
  /** The state through the last event at or before a moment (ISO): the API's `?at=`. */
  stateAtTime: (auctionId: string, at: string) =>
    call(`${base(auctionId)}/state`, z.object({ state: AuditState }), { query: { at } }),
  verify: (auctionId: string) =>
    call(`${base(auctionId)}/verify`, z.object({ verification: AuditVerification })),
  exportUrl: (auctionId: string) => `/api/v1${base(auctionId)}/export`,
};
