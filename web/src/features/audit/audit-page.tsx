import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/status';
import { auditApi } from './api';
import { AuditChart } from './audit-chart';
import { AuditDiff } from './audit-diff';
import { AuditEventList, AuditStepper } from './audit-stepper';
import { StateAtStep } from './state-at-step';
import { useAuditTimeline } from './use-audit-timeline';
import { VerifyResult } from './verify-result';
import './audit.css';

/**
 * An auction's timeline for auditors and its seller: scrub by revision or by time, see what each
 * event changed, the board as it stood, and the price (and, for auditors, the maxima) over time.
 */
export const AuditPage = () => {
  const { auctionId = '' } = useParams();
  const audit = useAuditTimeline(auctionId);
  const { events, timeline, users, failure, step, setStep, state, verification, verifying } = audit;

  if (failure)
    return (
      <section className="page narrow center">
        <h1>Audit timeline</h1>
        <p className="alert alert-danger">{failure}</p>
        <Link to={`/auction/${auctionId}`}>Back to the auction</Link>
      </section>
    );
  if (!events || !timeline) return <Spinner label="Loading the timeline" />;
  const steps = timeline.steps;

  return (
    <section className="page audit">
      <header className="page-header">
        <div>
          <h1>Audit timeline</h1>
          <p className="audit-muted">
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
            onClick={() => void audit.verify()}
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
          <AuditStepper
            events={events}
            steps={steps}
            users={users}
            step={step}
            setStep={setStep}
            goToTime={audit.goToTime}
            notice={audit.notice}
          />
          <AuditChart steps={steps} users={users} chosen={step} />
          <div className="audit-columns">
            <AuditEventList
              events={events}
              steps={steps}
              users={users}
              step={step}
              setStep={setStep}
            />
            <div className="audit-side">
              <AuditDiff step={steps[step]} users={users} />
              {state && state.revision === step ? <StateAtStep state={state} /> : <Spinner />}
            </div>
          </div>
        </>
      )}
    </section>
  );
};
