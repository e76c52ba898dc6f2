import type { AuditState } from '@auction/contracts';
import { Avatar } from '../../components/avatar';
import { Badge, auctionStatusTone } from '../../components/status';
import { formatMoney } from '../../lib/format';
import { formatMs } from './audit-words';

const money = (value: number | null | undefined) =>
  value === null || value === undefined ? 'None' : formatMoney(value);

/**
 * The auction as it stood after the chosen event: its facts (the reserve and Buy It Now price
 * included) and its bid board, with each bidder's maximum when the reader may see it (auditors).
 */
export const StateAtStep = ({ state }: { state: AuditState }) => {
  const maxima = state.bids.some((bid) => bid.maxAmount !== undefined);
  return (
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
          <dt>Reserve</dt>
          <dd data-testid="audit-reserve">{money(state.reservePrice)}</dd>
        </div>
        {state.buyNowPrice !== null && state.buyNowPrice !== undefined && (
          <div>
            <dt>Buy It Now</dt>
            <dd>{formatMoney(state.buyNowPrice)}</dd>
          </div>
        )}
        <div>
          <dt>Ends</dt>
          <dd>{formatMs(state.endsAt)}</dd>
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
        <p className="audit-muted">No standing bids at this step.</p>
      ) : (
        <ol className="audit-board" aria-label="Bid board">
          {state.bids.map((bid) => {
            const name = `${bid.bidder.firstName} ${bid.bidder.lastName}`;
            return (
              <li key={bid._id} className={bid._id === state.leadingBidId ? 'leading' : ''}>
                <Avatar name={name} imageUrl={bid.bidder.image?.url} size={32} />
                <span className="audit-board-name">
                  {name}
                  {bid.automatic && <span className="audit-auto"> · automatic</span>}
                </span>
                <span className="audit-board-amount">{formatMoney(bid.bidAmount)}</span>
                {maxima && (
                  <span className="audit-board-max">
                    max {bid.maxAmount === undefined ? '—' : formatMoney(bid.maxAmount)}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
};
