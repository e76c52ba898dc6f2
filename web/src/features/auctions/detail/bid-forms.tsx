import {
  AMOUNT_REQUIRED,
  type AuctionView,
  type IncrementRule,
  BidAmount,
  centsToDollars,
  dollarsToCents,
  hasAtMostTwoDecimals,
  incrementAt,
  minimumRaise,
} from '@auction/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { memo, useEffect, useId, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Modal } from '../../../components/modal';
import { formatMoney } from '../../../lib/format';
import './bid-decisions.css';

const MAX_INVALID = 'Your maximum must be a number of at least $1';

/** Spec §5: required, at least 1, converted to a number; at most two decimals: the API's `BidAmount`. */
export const BidAmountForm = z
  .object({
    bidAmount: z.coerce.number<string>({ error: AMOUNT_REQUIRED }).pipe(BidAmount),
    /** Optional secret maximum: empty is none. */
    maxBidAmount: z
      .string()
      .trim()
      .transform((value, ctx) => {
        if (value === '') return undefined;
        const amount = Number(value);
        if (!Number.isFinite(amount) || amount < 1) {
          ctx.addIssue({ code: 'custom', message: MAX_INVALID });
          return z.NEVER;
        }
        if (!hasAtMostTwoDecimals(value)) {
          ctx.addIssue({ code: 'custom', message: 'Maximum bid may have at most two decimals' });
          return z.NEVER;
        }
        return amount;
      }),
  })
  .refine((form) => form.maxBidAmount === undefined || form.maxBidAmount >= form.bidAmount, {
    message: 'Your maximum must be at least your bid',
    path: ['maxBidAmount'],
  });

/**
 * What a bid command answered, for the dialog to show at the amount (the toast says it too): a
 * refusal, or a bid placed that another's maximum beat at once. Nothing: it went through.
 */
export interface BidAnswer {
  readonly alert: string;
}

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
  /**
   * `maximum`: the secret maximum the bidder gave, when the dialog offers one. An answer is
   * shown at the amount, and the amount follows the minimum again.
   */
  onSubmit: (amount: number, maximum?: number) => Promise<BidAnswer | undefined>;
  /**
   * Prefill the amount with `min` and keep it there as the price moves until the bidder types;
   * offer a button that adds one increment under this rule to the amount.
   */
  prefill?: { readonly increments: IncrementRule } | undefined;
  onClose: () => void;
  /** Offer "your maximum" beside the amount (proxy bidding), with its current value. */
  maximum?: { readonly initial: string } | undefined;
}

/** What a maximum does, in a bidder's words. */
export const MAXIMUM_HINT =
  'Optional. We bid for you, only as much as it takes to keep you in the lead, up to this amount. Nobody else sees it.';

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
  maximum,
  prefill,
}: BidAmountDialogProps) {
  const {
    register,
    handleSubmit,
    setValue,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(BidAmountForm),
    defaultValues: {
      bidAmount: prefill ? String(min) : initialAmount,
      maxBidAmount: maximum?.initial ?? '',
    },
  });
  const [answer, setAnswer] = useState<string | null>(null);
  // The prefilled amount follows the minimum (a rival's bid raises it) until the bidder types.
  const [follow, setFollow] = useState(prefill !== undefined);
  useEffect(() => {
    if (follow) setValue('bidAmount', String(min));
  }, [follow, min, setValue]);
  const amountField = register('bidAmount', { onChange: () => setFollow(false) });
  const addIncrement = (rule: IncrementRule) => {
    const typed = Number(getValues('bidAmount'));
    const from = Number.isFinite(typed) && typed >= min ? typed : min;
    const next = centsToDollars(dollarsToCents(from) + incrementAt(dollarsToCents(from), rule));
    setFollow(false);
    setValue('bidAmount', String(next), { shouldValidate: true });
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form
        className="form"
        noValidate
        onSubmit={(event) =>
          void handleSubmit(async ({ bidAmount, maxBidAmount }) => {
            setAnswer(null);
            const answered = await onSubmit(bidAmount, maxBidAmount);
            if (!answered) return;
            setAnswer(answered.alert);
            if (prefill) setFollow(true);
          })(event)
        }
      >
        <p className="bid-dialog-summary">{summary}</p>
        <AmountField
          label={label}
          min={min}
          hint={hint}
          error={errors.bidAmount?.message ?? answer ?? undefined}
          registration={amountField}
          step={
            prefill
              ? {
                  label: `+ ${formatMoney(centsToDollars(incrementAt(dollarsToCents(min), prefill.increments)))}`,
                  onStep: () => addIncrement(prefill.increments),
                }
              : undefined
          }
        />
        {maximum ? (
          <AmountField
            label="Your maximum"
            min={min}
            hint={MAXIMUM_HINT}
            error={errors.maxBidAmount?.message}
            registration={register('maxBidAmount')}
          />
        ) : null}
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

interface AmountFieldProps {
  label: string;
  min: number;
  hint: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
  /** A button beside the input that raises the amount by one increment. */
  step?: { readonly label: string; readonly onStep: () => void } | undefined;
}

/**
 * A dollar amount with its hint beside it, and its error (announced) at the field once the form
 * is checked or the server answered.
 */
const AmountField = ({ label, min, hint, error, registration, step }: AmountFieldProps) => {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="amount-row">
        <input
          id={inputId}
          type="number"
          inputMode="decimal"
          min={min}
          step="any"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          {...registration}
        />
        {step ? (
          <button type="button" className="btn btn-ghost amount-step" onClick={step.onStep}>
            {step.label}
            <span className="sr-only">: add one increment</span>
          </button>
        ) : null}
      </div>
      <p id={hintId} className="field-hint">
        {hint}
      </p>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
};

/**
 * The smallest bid over the current one under the auction's own increment rule (dollars), and
 * what the bid form's hint says of that rule; the server's check is the same.
 */
export const nextBidOf = (
  auction: Pick<AuctionView, 'currentBid' | 'increments'>,
): { readonly minimum: number; readonly note: string } => {
  const current = dollarsToCents(auction.currentBid);
  const minimum = centsToDollars(minimumRaise(current, auction.increments));
  const step = formatMoney(centsToDollars(incrementAt(current, auction.increments)));
  return {
    minimum,
    note:
      auction.increments === 'table'
        ? ` Bids go up by at least ${step} at this price.`
        : ` Each bid must beat the current bid by at least ${step}.`,
  };
};

export const highestBidLine = (currentBid: number) => `Highest Bid: ${formatMoney(currentBid)}`;
export const currentBidLine = (amount: number) => `Current Bid: ${formatMoney(amount)}`;
