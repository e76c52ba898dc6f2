import type { AuditState } from '@auction/contracts';
import { Avatar } from '../../components/avatar';
import { Badge, auctionStatusTone } from '../../components/status';
import { formatDateTime, formatMoney } from '../../lib/format';

/** The auction as it stood after the chosen event: its facts and its bid board. */
export const StateAtStep = ({ state }: { state: AuditState }) => (
  <section className="card audit-state" aria-label="State at this step">
    <div className="row audit-state-head">
      <h2>As it stood at revision {state.revision}</h2>
      <Badge tone={auctionStatusTone(state.status)}>{state.status}</Badge>
    </div>
    <dl className="audit-facts">
      <div>
        <dt>Current bid</dt>
        <dd data-testid="audit-current-bid">{formatMoney(state.currentBid)}</dd>
      </div>
      <div>
        <dt>Leader</dt>
        <dd data-testid="audit-leader">
          {state.leader ? `${state.leader.firstName} ${state.leader.lastName}` : 'Nobody yet'}
        </dd>
      </div>
      <div>
        <dt>Starting price</dt>
        <dd>{formatMoney(state.startingPrice)}</dd>
      </div>
      <div>
        <dt>Ends</dt>
        <dd>{state.endsAt ? formatDateTime(state.endsAt) : '—'}</dd>
      </div>
      {state.winner && (
        <div>
          <dt>Winner</dt>
          <dd>
            {state.winner.firstName} {state.winner.lastName}
            {state.finalPrice !== null && ` at ${formatMoney(state.finalPrice)}`}
          </dd>
        </div>
      )}
    </dl>
    <h3>Bid board</h3>
    {state.bids.length === 0 ? (
      <p className="muted">No standing bids at this step.</p>
    ) : (
      <ol className="audit-board" aria-label="Bid board">
        {state.bids.map((bid) => {
          const name = `${bid.bidder.firstName} ${bid.bidder.lastName}`;
          return (
            <li key={bid._id} className={bid._id === state.leadingBidId ? 'leading' : ''}>
              <Avatar name={name} imageUrl={bid.bidder.image?.url} size={32} />
              <span className="audit-board-name">{name}</span>
              <span className="audit-board-amount">{formatMoney(bid.bidAmount)}</span>
            </li>
          );
        })}
      </ol>
    )}
  </section>
);
