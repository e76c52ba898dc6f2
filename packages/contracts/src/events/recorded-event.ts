/**
 * An event as the log hands it out, to the engine and the read side alike. Its data and metadata
 * are as stored: readers validate what they use (`asAuctionEvent`, `EventMetadata`).
 */
export interface RecordedEvent {
  readonly id: string;
  readonly streamId: string;
  /** 0-based position of the event in its stream. */
  readonly revision: number;
  /** Position in the global log: strictly increasing in commit order, across all streams. */
  readonly position: number;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
  /** When the store recorded it (ISO). Business time is in the data. */
  readonly recordedAt: string;
}
