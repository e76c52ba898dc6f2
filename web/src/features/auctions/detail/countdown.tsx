import { remainingUntil } from '../../../lib/format';

const pad = (value: number) => String(value).padStart(2, '0');

/** Days (only when any are left), hours, minutes and seconds to `endsAt`; zeros once it has passed. */
export const Countdown = ({ endsAt, now }: { endsAt: string; now: number }) => {
  const left = remainingUntil(endsAt, now);
  const units = [
    ...(left.days > 0 ? [{ label: 'Days', value: String(left.days) }] : []),
    { label: 'Hours', value: pad(left.hours) },
    { label: 'Minutes', value: pad(left.minutes) },
    { label: 'Seconds', value: pad(left.seconds) },
  ];
  return (
    <div className="countdown" role="timer" aria-label="Time left">
      {units.map(({ label, value }) => (
        <div key={label} className="countdown-unit">
          <span className="countdown-value">{value}</span>
          <span className="countdown-label">{label}</span>
        </div>
      ))}
    </div>
  );
};
