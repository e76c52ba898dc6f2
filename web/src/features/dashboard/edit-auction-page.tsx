import { AuctionView } from '@auction/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../lib/api-client';
import { dateInputValue, dateWithCurrentTime } from '../../lib/format';
import { findInPages } from '../../lib/paging';
import { auctionsApi } from '../../lib/auctions-api';
import {
  checkPriceRules,
  descriptionField,
  earliestEndDate,
  endDateField,
  optionalPriceField,
  startingPriceField,
  titleField,
} from './auction-form';
import { EndDateField } from './auction-fields';
import {
  AuctionDetailsForm,
  AuctionImageField,
  type ImageChoice,
  type WiredField,
  placeRefusal,
  sendAuctionForm,
  useImageChoice,
} from './auction-details-form';
import { useProfile } from '../../lib/profile-store';
import './dashboard.css';

const editFormSchema = (originalDate: string) =>
  z
    .object({
      title: titleField,
      description: descriptionField,
      startingPrice: startingPriceField,
      auctionEndDate: endDateField(originalDate),
      reservePrice: optionalPriceField('reservePrice'),
      buyNowPrice: optionalPriceField('buyNowPrice'),
    })
    .superRefine(checkPriceRules);
type EditAuctionForm = z.infer<ReturnType<typeof editFormSchema>>;

const valuesOf = (auction: AuctionView): EditAuctionForm => ({
  title: auction.title,
  description: auction.description,
  startingPrice: String(auction.startingPrice),
  auctionEndDate: dateInputValue(auction.auctionEndTime),
  // The seller's own list carries the reserve; Buy It Now shows while it is on offer.
  reservePrice: priceText(auction.viewer?.reservePrice ?? null),
  buyNowPrice: priceText(auction.buyNowPrice),
});

const priceText = (dollars: number | null): string => (dollars === null ? '' : String(dollars));

const updateFailure = (detail: string | null, error: unknown): string => {
  if (!(error instanceof ApiError) || error.status === 0) return 'Error updating auction';
  return detail ? `Failed to update auction: ${detail}` : 'Failed to update auction';
};

/** Which field a refusal's message lands on. */
const REFUSED_FIELDS = {
  title: 'title',
  description: 'description',
  price: 'startingPrice',
  date: 'auctionEndDate',
  reserve: 'reservePrice',
  buyNow: 'buyNowPrice',
} as const;

/** What the edit sends: the text, the end (unchanged: to the second), and what changed of the rest. */
const formDataOf = (
  auction: AuctionView,
  values: EditAuctionForm,
  image: ImageChoice,
): FormData => {
  const form = new FormData();
  form.set('title', values.title);
  form.set('description', values.description);
  form.set('startingPrice', values.startingPrice);
  form.set(
    'auctionEndTime',
    values.auctionEndDate === dateInputValue(auction.auctionEndTime)
      ? auction.auctionEndTime
      : dateWithCurrentTime(values.auctionEndDate),
  );
  if (image.file) form.set('image', image.file);
  else if (image.removed) form.set('removeImage', 'true');
  // Only a price that changed is sent: empty removes it.
  const original = valuesOf(auction);
  if (values.reservePrice !== original.reservePrice) form.set('reservePrice', values.reservePrice);
  if (values.buyNowPrice !== original.buyNowPrice) form.set('buyNowPrice', values.buyNowPrice);
  return form;
};

/** The edit form's state, kept to the auction until the seller changes something, and its submit. */
const useEditAuctionForm = (auction: AuctionView) => {
  const navigate = useNavigate();
  const originalDate = dateInputValue(auction.auctionEndTime);
  const schema = useMemo(() => editFormSchema(originalDate), [originalDate]);
  const image = useImageChoice();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EditAuctionForm>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(auction),
  });
  const { register, handleSubmit, reset, setError, formState } = form;
  const { isDirty } = formState;

  useEffect(() => {
    if (!isDirty) reset(valuesOf(auction));
  }, [auction, isDirty, reset]);

  const onValid = async (values: EditAuctionForm) => {
    setFailure(null);
    const sent = await sendAuctionForm(
      () => auctionsApi.edit(auction._id, formDataOf(auction, values, image)),
      { success: 'Auction updated successfully!', statuses: [400, 409, 413, 415] },
    );
    if (sent.refused) {
      // At its field when the server's message names one; else once, in the form.
      const unplaced = placeRefusal(sent.detail, REFUSED_FIELDS, (field, message) =>
        setError(field, { message }, { shouldFocus: true }),
      );
      if (unplaced !== null || sent.detail === null)
        setFailure(updateFailure(unplaced, sent.error));
      return;
    }
    const store = useProfile.getState();
    store.setEditAuctionForm(null);
    void store.load();
    void navigate('/dashboard/my-auctions');
  };

  return {
    form,
    image,
    failure,
    field: (name: keyof EditAuctionForm): WiredField => ({
      error: formState.errors[name]?.message,
      registration: register(name),
    }),
    onSubmit: (event: FormEvent<HTMLFormElement>) => void handleSubmit(onValid)(event),
  };
};

/** The seller's changes to a live auction; with bids placed, the prices may only go as the rules allow. */
const EditForm = ({ auction }: { auction: AuctionView }) => {
  const { form, image, failure, field, onSubmit } = useEditAuctionForm(auction);
  const priceLocked = auction.bidCount > 0;
  const originalDate = dateInputValue(auction.auctionEndTime);
  const earliest = earliestEndDate();
  const minDate = originalDate && originalDate < earliest ? originalDate : earliest;
  return (
    <AuctionDetailsForm
      ids="edit"
      field={field}
      priceLocked={priceLocked}
      hints={priceLocked ? LOCKED_HINTS : OPEN_HINTS}
      top={
        <AuctionImageField
          id="edit-photo"
          label="Photo"
          choice={image}
          savedUrl={auction.image?.url}
          previewAlt={`Photo of ${auction.title}`}
        />
      }
      afterPrice={
        <EndDateField
          id="edit-end-date"
          {...field('auctionEndDate')}
          hint="A new date keeps the current time of day."
          min={minDate}
        />
      }
      bottom={<p className="field-hint">Category: {auction.category.name} (cannot be changed)</p>}
      failure={
        failure ? (
          <div className="alert alert-danger" role="alert">
            {failure}
          </div>
        ) : null
      }
      onSubmit={onSubmit}
      submit={{ busy: form.formState.isSubmitting, label: 'Save Changes', busyLabel: 'Saving...' }}
    />
  );
};

/** What the price fields say before any bid, and what may still change once bids exist. */
const OPEN_HINTS = {
  startingPrice: undefined,
  reservePrice: 'Your secret minimum: bids below it cannot win. Empty: none.',
  buyNowPrice: 'Anyone may buy at this price and end the auction at once. Empty: none.',
};
const LOCKED_HINTS = {
  startingPrice: 'The starting price cannot change once bids are placed.',
  reservePrice: 'With bids placed, the reserve can only be lowered or removed.',
  buyNowPrice: 'The Buy It Now price cannot change once bids are placed.',
};

const passedAuction = (state: unknown, auctionId: string): AuctionView | null => {
  const candidate =
    typeof state === 'object' && state !== null && 'auction' in state ? state.auction : undefined;
  const parsed = AuctionView.safeParse(candidate);
  return parsed.success && parsed.data._id === auctionId ? parsed.data : null;
};

const Unavailable = ({ title, text }: { title: string; text: string }) => (
  <div className="empty card">
    <h2>{title}</h2>
    <p>{text}</p>
    <Link to="/dashboard/my-auctions" className="btn btn-primary">
      Back to My Auctions
    </Link>
  </div>
);

/**
 * The route's auction among the user's own, page after page; shown meanwhile from what the page
 * was handed (My Auctions' copy, or the detail page's link state).
 */
const useOwnAuction = (auctionId: string) => {
  const location = useLocation();
  const editAuctionForm = useProfile((s) => s.editAuctionForm);
  const [auction, setAuction] = useState<AuctionView | null>(() =>
    editAuctionForm?._id === auctionId ? editAuctionForm : passedAuction(location.state, auctionId),
  );
  const [lookup, setLookup] = useState<'loading' | 'found' | 'missing' | 'failed'>('loading');

  useEffect(() => {
    let active = true;
    findInPages(
      async (cursor) => {
        const { auctions, nextCursor } = await auctionsApi.mine({ cursor, limit: 100 });
        return { items: auctions, nextCursor };
      },
      (candidate) => candidate._id === auctionId,
    )
      .then((found) => {
        if (!active) return;
        const mine = found ?? null;
        setAuction(mine);
        setLookup(mine ? 'found' : 'missing');
      })
      .catch((error: unknown) => {
        console.error(error);
        if (active) setLookup('failed');
      });
    return () => {
      active = false;
    };
  }, [auctionId]);

  return { auction, lookup };
};

/** Edits one of the user's live auctions, found among their own by the route's id (spec §2). */
export const EditAuctionPage = () => {
  const { auctionId = '' } = useParams();
  const { auction, lookup } = useOwnAuction(auctionId);

  let content;
  if (!auction && lookup === 'loading')
    content = (
      <p className="dashboard-loading" role="status">
        Loading your auction...
      </p>
    );
  else if (!auction)
    content =
      lookup === 'failed' ? (
        <Unavailable
          title="Unable to load this auction"
          text="Your auctions could not be loaded. Please try again later."
        />
      ) : (
        <Unavailable
          title="Auction not found"
          text="There is no auction of yours at this address."
        />
      );
  else if (auction.status !== 'Live')
    content = (
      <Unavailable
        title="This auction can no longer be edited"
        text={`Only live auctions can be edited; this one is ${auction.status}.`}
      />
    );
  else content = <EditForm key={auction._id} auction={auction} />;

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>Edit Auction</h1>
          {auction ? <p className="muted">{auction.title}</p> : null}
        </div>
      </header>
      {content}
    </section>
  );
};
