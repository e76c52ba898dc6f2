import { rules } from '@auction/contracts';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { latestEndDate } from './auction-form';
import { Field, fieldAria } from '../../components/form-controls';

interface AuctionFieldProps {
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}

/** The auction fields the create and edit forms share, with the server's limits. */
export const TitleField = ({ id, error, registration }: AuctionFieldProps) => (
  <Field id={id} label="Title" error={error}>
    <input type="text" maxLength={200} {...fieldAria(id, error)} {...registration} />
  </Field>
);

export const DescriptionField = ({ id, error, registration }: AuctionFieldProps) => (
  <Field id={id} label="Description" error={error}>
    <textarea rows={5} maxLength={5000} {...fieldAria(id, error)} {...registration} />
  </Field>
);

export const StartingPriceField = ({
  id,
  error,
  registration,
  hint = 'In dollars, at least $100.',
  readOnly = false,
}: AuctionFieldProps & { hint?: string; readOnly?: boolean }) => (
  <Field id={id} label="Starting Price" error={error} hint={hint}>
    <input
      type="number"
      inputMode="decimal"
      min={100}
      step="0.01"
      readOnly={readOnly}
      {...fieldAria(id, error, true)}
      {...registration}
    />
  </Field>
);

/** An optional price in dollars (the reserve, Buy It Now), with what it does as its hint. */
export const OptionalPriceField = ({
  id,
  label,
  error,
  registration,
  hint,
  readOnly = false,
}: AuctionFieldProps & { label: string; hint: string; readOnly?: boolean }) => (
  <Field id={id} label={label} error={error} hint={hint}>
    <input
      type="number"
      inputMode="decimal"
      min={1}
      step="0.01"
      readOnly={readOnly}
      {...fieldAria(id, error, true)}
      {...registration}
    />
  </Field>
);

export const EndDateField = ({
  id,
  error,
  registration,
  hint,
  min,
}: AuctionFieldProps & { hint: string; min: string }) => (
  <Field id={id} label="Auction End Date" error={error} hint={hint}>
    <input
      type="date"
      min={min}
      max={latestEndDate()}
      {...fieldAria(id, error, true)}
      {...registration}
    />
  </Field>
);

const minutes = (ms: number) => (ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`);

/**
 * The bidding rules a seller chooses for a new auction: how much each bid must beat the last by,
 * and soft close. The defaults are the spec's: $1, and an end that never moves.
 */
export const BiddingRulesFields = ({
  increments,
  softClose,
}: {
  increments: UseFormRegisterReturn;
  softClose: UseFormRegisterReturn;
}) => (
  <div className="field-row">
    <Field
      id="auction-increments"
      label="Bid increments"
      hint="The table raises the step with the price: $2.50 from $100, $5 from $250, up to $100 from $5,000."
    >
      <select {...fieldAria('auction-increments', undefined, true)} {...increments}>
        <option value="one-dollar">Each bid at least $1 more (standard)</option>
        <option value="table">Published increment table</option>
      </select>
    </Field>
    <div className="field">
      <div className="checkbox">
        <input
          type="checkbox"
          {...fieldAria('auction-soft-close', undefined, true)}
          {...softClose}
        />
        <label htmlFor="auction-soft-close">Soft close</label>
      </div>
      <p id="auction-soft-close-hint" className="field-hint">
        A bid in the last {minutes(rules.softClose.windowMs)} extends bidding to{' '}
        {minutes(rules.softClose.extensionMs)} after it. Off: bidding ends at the end time.
      </p>
    </div>
  </div>
);

/** Cancel (back to My Auctions) and the submit button, which shows `busyLabel` while it runs. */
export const AuctionFormActions = ({
  busy,
  label,
  busyLabel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
}) => (
  <div className="form-actions">
    <Link to="/dashboard/my-auctions" className="btn btn-ghost">
      Cancel
    </Link>
    <button type="submit" className="btn btn-primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  </div>
);
