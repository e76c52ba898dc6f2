import { hasAtMostTwoDecimals } from '@auction/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { memo, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Modal } from '../../components/modal';
import { formatMoney } from '../../lib/format';

const INVALID = 'Valid bid amount is required';

/** Spec §5: required, at least 1, converted to a number; at most two decimals, as the server checks. */
export const BidAmountForm = z.object({
  bidAmount: z.coerce
    .number<string>({ error: INVALID })
    .min(1, INVALID)
    .refine(hasAtMostTwoDecimals, 'Bid amount may have at most two decimals'),
});

interface BidAmountDialogProps {
  title: string;
  /** The line above the input, e.g. 'Highest Bid: $120'. */
  summary: string;
  label: string;
  initialAmount: string;
  /** The smallest amount the server may accept, offered to the input and the hint. */
  min: number;
  hint: string;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (amount: number) => Promise<void>;
  onClose: () => void;
}

/** A modal asking for one bid amount; the submit button shows the busy label while it runs. */
export const BidAmountDialog = memo(function BidAmountDialog({
  title,
  summary,
  label,
  initialAmount,
  min,
  hint,
  submitLabel,
  busyLabel,
  onSubmit,
  onClose,
}: BidAmountDialogProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(BidAmountForm),
    defaultValues: { bidAmount: initialAmount },
  });
  const error = errors.bidAmount?.message;
  return (
    <Modal title={title} onClose={onClose}>
      <form
        className="form"
        noValidate
        onSubmit={(event) => void handleSubmit(({ bidAmount }) => onSubmit(bidAmount))(event)}
      >
        <p className="bid-dialog-summary">{summary}</p>
        <div className="field">
          <label htmlFor={inputId}>{label}</label>
          <input
            id={inputId}
            type="number"
            inputMode="decimal"
            min={min}
            step="any"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            {...register('bidAmount')}
          />
          <p id={hintId} className="field-hint">
            {hint}
          </p>
          {error && (
            <p id={errorId} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting ? busyLabel : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
});

export const highestBidLine = (currentBid: number) => `Highest Bid: ${formatMoney(currentBid)}`;
export const currentBidLine = (amount: number) => `Current Bid: ${formatMoney(amount)}`;
