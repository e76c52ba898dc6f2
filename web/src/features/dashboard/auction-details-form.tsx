import { useState, type FormEventHandler, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { ImagePicker, refusalMessage } from '../../components/form-controls';
import { withLoadingToast } from '../../lib/toast';
import {
  AuctionFormActions,
  DescriptionField,
  OptionalPriceField,
  StartingPriceField,
  TitleField,
} from './auction-fields';
import { fieldOfMessage } from './auction-form';

/** The fields both forms have, under the same names. */
export type SharedField =
  'title' | 'description' | 'startingPrice' | 'reservePrice' | 'buyNowPrice';

/** A field as the page's form registers it, with its message once checked. */
export interface WiredField {
  error: string | undefined;
  registration: UseFormRegisterReturn;
}

interface AuctionDetailsFormProps {
  /** The inputs' id prefix (`auction` on the create page, `edit` on the edit page). */
  ids: string;
  field: (name: SharedField) => WiredField;
  /** Once bids exist the starting price and Buy It Now stay as they are. */
  priceLocked?: boolean;
  hints: { startingPrice?: string | undefined; reservePrice: string; buyNowPrice: string };
  /**
   * A page's own fields, where it has always shown them: the edit page puts the photo first and the
   * end date beside the price, the create page its category there and the rest below the prices.
   */
  top?: ReactNode;
  beforePrice?: ReactNode;
  afterPrice?: ReactNode;
  bottom?: ReactNode;
  failure: ReactNode;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submit: { busy: boolean; label: string; busyLabel: string };
}

/** The form the create and edit pages share: the auction's text and prices, and the buttons. */
export const AuctionDetailsForm = ({
  ids,
  field,
  priceLocked = false,
  hints,
  top,
  beforePrice,
  afterPrice,
  bottom,
  failure,
  onSubmit,
  submit,
}: AuctionDetailsFormProps) => (
  <form className="card form auction-form" noValidate onSubmit={onSubmit}>
    {top}
    <TitleField id={`${ids}-title`} {...field('title')} />
    <DescriptionField id={`${ids}-description`} {...field('description')} />
    <div className="field-row">
      {beforePrice}
      <StartingPriceField
        id={`${ids}-price`}
        {...field('startingPrice')}
        readOnly={priceLocked}
        hint={hints.startingPrice}
      />
      {afterPrice}
    </div>
    <div className="field-row">
      <OptionalPriceField
        id={`${ids}-reserve`}
        label="Reserve price (optional)"
        hint={hints.reservePrice}
        {...field('reservePrice')}
      />
      <OptionalPriceField
        id={`${ids}-buy-now`}
        label="Buy It Now price (optional)"
        hint={hints.buyNowPrice}
        {...field('buyNowPrice')}
        readOnly={priceLocked}
      />
    </div>
    {bottom}
    {failure}
    <AuctionFormActions busy={submit.busy} label={submit.label} busyLabel={submit.busyLabel} />
  </form>
);

/** The image a seller picked for the auction, or that they removed the one it had. */
export const useImageChoice = () => {
  const [file, setFile] = useState<File | null>(null);
  const [removed, setRemoved] = useState(false);
  const select = (chosen: File) => {
    setFile(chosen);
    setRemoved(false);
  };
  const remove = () => {
    setFile(null);
    setRemoved(true);
  };
  return { file, removed, select, remove };
};

export type ImageChoice = ReturnType<typeof useImageChoice>;

export const AuctionImageField = ({
  id,
  label,
  choice,
  savedUrl,
  previewAlt,
}: {
  id: string;
  label: string;
  choice: ImageChoice;
  savedUrl?: string | null | undefined;
  previewAlt: string;
}) => (
  <ImagePicker
    id={id}
    label={label}
    file={choice.file}
    savedUrl={choice.removed ? null : savedUrl}
    onSelect={choice.select}
    onRemove={choice.remove}
    previewAlt={previewAlt}
    hint="Max 10MB"
  />
);

/**
 * Sends the form behind the spec's loading toast. A failure raises no toast of its own: it comes
 * back as the server's message when the server explained it (one of `statuses`), for the page to
 * put at the field it names (`placeRefusal`), or else to show once in the form.
 */
export const sendAuctionForm = async (
  send: () => Promise<unknown>,
  words: { success: string; statuses: readonly number[] },
): Promise<{ refused: false } | { refused: true; detail: string | null; error: unknown }> => {
  const refusal: { detail: string | null; error: unknown } = { detail: null, error: null };
  const result = await withLoadingToast(send, {
    success: words.success,
    failure: (error) => {
      refusal.detail = refusalMessage(error, words.statuses);
      refusal.error = error;
      return null;
    },
  });
  return result ? { refused: false } : { refused: true, ...refusal };
};

/** Puts a refusal's message on the field it names (focused); returns it when it names none. */
export const placeRefusal = <F extends string>(
  detail: string | null,
  fields: Parameters<typeof fieldOfMessage<F>>[1],
  setError: (field: F, message: string) => void,
): string | null => {
  if (!detail) return null;
  const field = fieldOfMessage(detail, fields);
  if (!field) return detail;
  setError(field, detail);
  return null;
};
