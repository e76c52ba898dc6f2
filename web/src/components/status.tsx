/** Auction status colours (spec §4): Live green, Sold blue, Expired red, anything else grey. */
export const auctionStatusTone = (status: string): string =>
  ({ Live: 'green', Sold: 'blue', Expired: 'red' })[status] ?? 'grey';

/** History status colours (spec §4): completed green, active blue, outbid red, else grey. */
export const historyStatusTone = (status: string): string =>
  ({ completed: 'green', active: 'blue', outbid: 'red' })[status] ?? 'grey';

export const Badge = ({ tone, children }: { tone: string; children: React.ReactNode }) => (
  <span className={`badge badge-${tone}`}>{children}</span>
);

export const Spinner = ({ label = 'Loading' }: { label?: string }) => (
  <div className="spinner-wrap" role="status" aria-live="polite">
    <span className="spinner" aria-hidden="true" />
    <span className="sr-only">{label}</span>
  </div>
);
