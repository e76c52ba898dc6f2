import type { AuditEvent, AuditState, AuditVerification } from '@auction/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Avatar } from '../../components/avatar';
import { Badge, Spinner, auctionStatusTone } from '../../components/status';
import { ApiError } from '../../lib/api-client';
import { formatDateTime, formatMoney } from '../../lib/format';
import { auditApi } from './api';
import './audit.css';

const describe = (event: AuditEvent): string => {
  const amount = event.dollars.amount ?? event.dollars.startingPrice ?? event.dollars.finalPrice;
  const money = amount === undefined ? '' : ` · ${formatMoney(amount)}`;
  return `${event.type}${money}`;
};

const failureText = (error: unknown): string => {
  if (error instanceof ApiError && error.status === 403)
    return 'Only auditors, admins and the seller may see this timeline.';
  if (error instanceof ApiError && error.status === 404) return 'No such auction.';
  return error instanceof ApiError && error.serverMessage
    ? error.serverMessage
    : 'Cannot load the timeline.';
};

const StateAtStep = ({ state }: { state: AuditState }) => (
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

/** Whether anything differs, and whether some read models were still behind the log. */
const verdictOf = (verification: AuditVerification) =>
  verification.problems.length > 0 ? 'bad' : verification.behind.length > 0 ? 'behind' : 'ok';

const HEADINGS = {
  ok: 'Verified: the record is intact',
  behind: 'No problems found so far',
  bad: 'Problems found',
} as const;

const VerifyResult = ({ verification }: { verification: AuditVerification }) => (
  <section
    className={`card audit-verify ${verdictOf(verification) === 'bad' ? 'bad' : 'ok'}`}
    aria-label="Verification"
    aria-live="polite"
  >
    <h2>{HEADINGS[verdictOf(verification)]}</h2>
    <ul>
      <li>
        Hash chain:{' '}
        {verification.chain.ok
          ? `intact over ${verification.chain.length} events`
          : `broken at revision ${verification.chain.brokenAt} (${verification.chain.reason})`}
      </li>
      <li>Stream end: {verification.truncation.message}</li>
      <li>
        Read models:{' '}
        {verification.readModels.differences.length + verification.readModels.omitted > 0
          ? `${verification.readModels.differences.length + verification.readModels.omitted} difference(s)`
          : verification.behind.length > 0
            ? `${verification.behind.join(', ')} still catching up with the log, not compared yet (verify again in a moment)`
            : 'equal to a fresh replay'}
      </li>
    </ul>
    {verification.readModels.differences.length > 0 && (
      <div className="audit-table-wrap">
        <table className="audit-table">
          <caption>Differences between the stored read models and a fresh replay</caption>
          <thead>
            <tr>
              <th scope="col">Collection</th>
              <th scope="col">Document</th>
              <th scope="col">Field</th>
              <th scope="col">Stored</th>
              <th scope="col">Replayed</th>
            </tr>
          </thead>
          <tbody>
            {verification.readModels.differences.map((difference, index) => (
              <tr key={index}>
                <td>{difference.collection}</td>
                <td>{difference.documentId}</td>
                <td>{difference.path || difference.kind}</td>
                <td>
                  <code>{JSON.stringify(difference.stored) ?? '—'}</code>
                </td>
                <td>
                  <code>{JSON.stringify(difference.replayed) ?? '—'}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
);

/** An auction's timeline for auditors (design §7): step through its events and see the board as it stood. */
export const AuditPage = () => {
  const { auctionId = '' } = useParams();
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [state, setState] = useState<AuditState | null>(null);
  const [verification, setVerification] = useState<AuditVerification | null>(null);
  const [verifying, setVerifying] = useState(false);
  const states = useRef(new Map<number, AuditState>());

  useEffect(() => {
    states.current = new Map();
    setEvents(null);
    setFailure(null);
    setVerification(null);
    auditApi.events(auctionId).then(
      ({ events: loaded }) => {
        setEvents(loaded);
        setStep(Math.max(0, loaded.length - 1));
      },
      (error: unknown) => setFailure(failureText(error)),
    );
  }, [auctionId]);

  useEffect(() => {
    if (!events || events.length === 0) return;
    const known = states.current.get(step);
    if (known) return setState(known);
    let current = true;
    auditApi.stateAt(auctionId, step).then(
      ({ state: folded }) => {
        states.current.set(step, folded);
        if (current) setState(folded);
      },
      (error: unknown) => current && setFailure(failureText(error)),
    );
    return () => {
      current = false;
    };
  }, [auctionId, events, step]);

  const verify = async () => {
    setVerifying(true);
    try {
      setVerification((await auditApi.verify(auctionId)).verification);
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setVerifying(false);
    }
  };

  if (failure)
    return (
      <section className="page narrow center">
        <h1>Audit timeline</h1>
        <p className="alert alert-danger">{failure}</p>
        <Link to={`/auction/${auctionId}`}>Back to the auction</Link>
      </section>
    );
  if (!events) return <Spinner label="Loading the timeline" />;
  const last = events.length - 1;
  const event = events[step];

  return (
    <section className="page audit">
      <header className="page-header">
        <div>
          <h1>Audit timeline</h1>
          <p className="muted">
            {state?.title ?? 'Auction'} · {events.length} events ·{' '}
            <Link to={`/auction/${auctionId}`}>auction page</Link>
          </p>
        </div>
        <div className="row">
          <a className="btn btn-ghost" href={auditApi.exportUrl(auctionId)} download>
            Export NDJSON
          </a>
          <button
            type="button"
            className="btn btn-primary"
            disabled={verifying}
            onClick={() => void verify()}
          >
            {verifying ? 'Verifying...' : 'Verify'}
          </button>
        </div>
      </header>
      {verification && <VerifyResult verification={verification} />}
      {events.length === 0 ? (
        <p className="empty">This auction has no events.</p>
      ) : (
        <>
          <div className="card audit-stepper">
            <div className="row">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={step === 0}
                onClick={() => setStep((s) => Math.max(0, s - 1))}
              >
                ◀ Previous
              </button>
              <label className="audit-slider">
                <span className="sr-only">Revision</span>
                <input
                  type="range"
                  min={0}
                  max={last}
                  value={step}
                  aria-valuetext={`Revision ${step} of ${last}`}
                  onChange={(e) => setStep(Number(e.target.value))}
                />
              </label>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={step === last}
                onClick={() => setStep((s) => Math.min(last, s + 1))}
              >
                Next ▶
              </button>
            </div>
            <p className="audit-step" aria-live="polite" data-testid="audit-step">
              Revision {step} of {last}
              {event && ` · ${describe(event)} · ${event.at ? formatDateTime(event.at) : ''}`}
            </p>
          </div>
          <div className="audit-columns">
            <ol className="card audit-timeline" aria-label="Events">
              {events.map((item) => (
                <li key={item.revision} className={item.revision === step ? 'current' : ''}>
                  <button
                    type="button"
                    aria-current={item.revision === step ? 'step' : undefined}
                    onClick={() => setStep(item.revision)}
                  >
                    <span className="audit-rev">#{item.revision}</span>
                    <span className="audit-type">{describe(item)}</span>
                    <span className="audit-time">{item.at ? formatDateTime(item.at) : ''}</span>
                    <code className="audit-hash" title={item.hash ?? ''}>
                      {item.hash?.slice(0, 10) ?? 'no hash'}
                    </code>
                  </button>
                </li>
              ))}
            </ol>
            {state && state.revision === step ? <StateAtStep state={state} /> : <Spinner />}
          </div>
        </>
      )}
    </section>
  );
};
