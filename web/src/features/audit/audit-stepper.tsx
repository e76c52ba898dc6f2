import type { AuditEvent, AuditStep } from '@auction/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { type Users, actorName, eventSummary, formatMs } from './audit-words';

interface StepProps {
  events: readonly AuditEvent[];
  steps: readonly AuditStep[];
  users: Users;
  step: number;
  setStep: (step: number) => void;
}

const timeOf = (event: AuditEvent | undefined): number =>
  event?.at ? Date.parse(event.at) : Number.NaN;

/** The value a `datetime-local` input shows for an instant, in the browser's zone, to the ms. */
const localInputValue = (ms: number): string =>
  Number.isFinite(ms)
    ? new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 23)
    : '';

/** The last event whose business time is at or before `ms` (the API's rule for `?at=`), else 0. */
const lastAtOrBefore = (events: readonly AuditEvent[], ms: number): number => {
  let found = 0;
  for (const event of events) {
    if (timeOf(event) <= ms) found = event.revision;
    else break;
  }
  return found;
};

interface StepperProps extends StepProps {
  goToTime: (iso: string) => Promise<void>;
  notice: string | null;
}

/**
 * Scrubbing: Previous and Next, a slider over the revisions, a slider over the time between the
 * first and the last event (to the millisecond), and a moment typed in (the API's `?at=`).
 */
export const AuditStepper = ({
  events,
  steps,
  users,
  step,
  setStep,
  goToTime,
  notice,
}: StepperProps) => {
  const last = events.length - 1;
  const event = events[step];
  const first = timeOf(events[0]);
  const end = timeOf(events[last]);
  const span = Number.isFinite(first) && Number.isFinite(end) ? Math.max(0, end - first) : 0;
  const at = timeOf(event);
  const [moment, setMoment] = useState(localInputValue(at));
  useEffect(() => setMoment(localInputValue(at)), [at]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const ms = new Date(moment).getTime();
    if (Number.isFinite(ms)) void goToTime(new Date(ms).toISOString());
  };

  return (
    <section className="card audit-stepper" aria-label="Scrub the timeline">
      <div className="row audit-scrub">
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={step === 0}
          onClick={() => setStep(Math.max(0, step - 1))}
        >
          ◀ Previous
        </button>
        <label className="audit-slider">
          <span className="audit-slider-label">Revision</span>
          <input
            type="range"
            min={0}
            max={last}
            step={1}
            value={step}
            aria-valuetext={`Revision ${step} of ${last}`}
            onChange={(e) => setStep(Number(e.target.value))}
          />
        </label>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={step === last}
          onClick={() => setStep(Math.min(last, step + 1))}
        >
          Next ▶
        </button>
      </div>
      {span > 0 && (
        <div className="row audit-scrub">
          <label className="audit-slider">
            <span className="audit-slider-label">Time</span>
            <input
              type="range"
              min={0}
              max={span}
              step={1}
              value={Number.isFinite(at) ? at - first : 0}
              aria-valuetext={formatMs(event?.at ?? null)}
              onChange={(e) => setStep(lastAtOrBefore(events, first + Number(e.target.value)))}
            />
          </label>
          <span className="audit-scale" aria-hidden="true">
            {formatMs(events[0]?.at ?? null)} – {formatMs(events[last]?.at ?? null)}
          </span>
        </div>
      )}
      <form className="row audit-moment" onSubmit={submit}>
        <label>
          <span className="audit-slider-label">Moment</span>
          <input
            type="datetime-local"
            step="0.001"
            value={moment}
            onChange={(e) => setMoment(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-ghost btn-sm">
          Show the board then
        </button>
      </form>
      {notice && <p className="audit-notice">{notice}</p>}
      <p className="audit-step" aria-live="polite" data-testid="audit-step">
        Revision {step} of {last}
        {event &&
          ` · ${eventSummary(event)} · ${actorName(steps[step], users)} · ${formatMs(event.at)}`}
      </p>
    </section>
  );
};

/** Every event: revision, plain name, actor, time to the ms; choosing one steps to it. */
export const AuditEventList = ({ events, steps, users, step, setStep }: StepProps) => (
  <ol className="card audit-timeline" aria-label="Events">
    {events.map((item) => (
      <li key={item.revision} className={item.revision === step ? 'current' : ''}>
        <button
          type="button"
          aria-current={item.revision === step ? 'step' : undefined}
          onClick={() => setStep(item.revision)}
        >
          <span className="audit-rev">#{item.revision}</span>
          <span className="audit-type">{eventSummary(item)}</span>
          <span className="audit-actor">{actorName(steps[item.revision], users)}</span>
          <time className="audit-time" dateTime={item.at ?? undefined}>
            {formatMs(item.at)}
          </time>
          <code className="audit-hash" title={item.hash ?? ''}>
            {item.hash?.slice(0, 10) ?? 'no hash'}
          </code>
        </button>
      </li>
    ))}
  </ol>
);
