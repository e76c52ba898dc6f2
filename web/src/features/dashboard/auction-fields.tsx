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
