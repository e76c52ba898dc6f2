import type { AuditEvent } from '@auction/contracts';
import { formatDateTime, formatMoney } from '../../lib/format';

const describe = (event: AuditEvent): string => {
  const amount = event.dollars.amount ?? event.dollars.startingPrice ?? event.dollars.finalPrice;
  const money = amount === undefined ? '' : ` · ${formatMoney(amount)}`;
  return `${event.type}${money}`;
};

interface StepProps {
  events: readonly AuditEvent[];
  step: number;
  setStep: (step: number | ((step: number) => number)) => void;
}

/** Previous, a slider over the revisions, Next, and which event the chosen step is. */
export const AuditStepper = ({ events, step, setStep }: StepProps) => {
  const last = events.length - 1;
  const event = events[step];
  return (
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
  );
};

/** Every event, the chosen one marked; choosing one steps to it. */
export const AuditEventList = ({ events, step, setStep }: StepProps) => (
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
);
