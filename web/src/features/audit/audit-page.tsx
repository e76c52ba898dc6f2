import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/status';
import { auditApi } from './api';
import { AuditEventList, AuditStepper } from './audit-stepper';
import { StateAtStep } from './state-at-step';
import { useAuditTimeline } from './use-audit-timeline';
import { VerifyResult } from './verify-result';
import './audit.css';

/** An auction's timeline for auditors: step through its events and see the board as it stood. */
export const AuditPage = () => {
  const { auctionId = '' } = useParams();
  const { events, failure, step, setStep, state, verification, verifying, verify } =
    useAuditTimeline(auctionId);

  if (failure)
    return (
      <section className="page narrow center">
        <h1>Audit timeline</h1>
        <p className="alert alert-danger">{failure}</p>
        <Link to={`/auction/${auctionId}`}>Back to the auction</Link>
      </section>
    );
  if (!events) return <Spinner label="Loading the timeline" />;

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
          <AuditStepper events={events} step={step} setStep={setStep} />
          <div className="audit-columns">
            <AuditEventList events={events} step={step} setStep={setStep} />
            {state && state.revision === step ? <StateAtStep state={state} /> : <Spinner />}
          </div>
        </>
      )}
    </section>
  );
};
