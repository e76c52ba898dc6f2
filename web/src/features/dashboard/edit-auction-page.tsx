import { AuctionView } from '@auction/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../lib/api-client';
import { dateInputValue, dateWithCurrentTime } from '../../lib/format';
import { withLoadingToast } from '../../lib/toast';
import { findInPages } from '../../lib/paging';
import { auctionsApi } from '../../lib/auctions-api';
import {
  descriptionField,
  earliestEndDate,
  endDateField,
  fieldOfMessage,
  optionalPriceField,
  startingPriceField,
  titleField,
} from './auction-form';
import { ImagePicker, refusalMessage } from '../../components/form-controls';
import {
  AuctionFormActions,
  DescriptionField,
  EndDateField,
  OptionalPriceField,
  StartingPriceField,
  TitleField,
} from './auction-fields';
import { useProfile } from '../../lib/profile-store';
import './dashboard.css';

const editFormSchema = (originalDate: string) =>
  z.object({
    title: titleField,
    description: descriptionField,
    startingPrice: startingPriceField,
    auctionEndDate: endDateField(originalDate),
    reservePrice: optionalPriceField('reservePrice'),
    buyNowPrice: optionalPriceField('buyNowPrice'),
  });
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

const updateFailure = (error: unknown, refusal: { detail: string | null }): string => {
  if (!(error instanceof ApiError) || error.status === 0) return 'Error updating auction';
  refusal.detail = refusalMessage(error, [400, 409, 413, 415]);
  return refusal.detail
    ? `Failed to update auction: ${refusal.detail}`
    : 'Failed to update auction';
};

const EditForm = ({ auction }: { auction: AuctionView }) => {
  const navigate = useNavigate();
  const originalDate = dateInputValue(auction.auctionEndTime);
  const schema = useMemo(() => editFormSchema(originalDate), [originalDate]);
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoRemoved, setPhotoRemoved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<EditAuctionForm>({ resolver: zodResolver(schema), defaultValues: valuesOf(auction) });

  useEffect(() => {
    if (!isDirty) reset(valuesOf(auction));
  }, [auction, isDirty, reset]);

  const priceLocked = auction.bidCount > 0;
  const earliest = earliestEndDate();
  const minDate = originalDate && originalDate < earliest ? originalDate : earliest;

  const onValid = async (values: EditAuctionForm) => {
    setFailure(null);
    const form = new FormData();
    form.set('title', values.title);
    form.set('description', values.description);
    form.set('startingPrice', values.startingPrice);
    form.set(
      'auctionEndTime',
      values.auctionEndDate === originalDate
        ? auction.auctionEndTime
        : dateWithCurrentTime(values.auctionEndDate),
    );
    if (photo) form.set('image', photo);
    else if (photoRemoved) form.set('removeImage', 'true');
    // Only a price that changed is sent: empty removes it.
    const original = valuesOf(auction);
    if (values.reservePrice !== original.reservePrice)
      form.set('reservePrice', values.reservePrice);
    if (values.buyNowPrice !== original.buyNowPrice) form.set('buyNowPrice', values.buyNowPrice);
    const refusal: { detail: string | null } = { detail: null };
    const result = await withLoadingToast(() => auctionsApi.edit(auction._id, form), {
      success: 'Auction updated successfully!',
      failure: (error) => updateFailure(error, refusal),
    });
    if (!result) {
      const { detail } = refusal;
      const field = detail
        ? fieldOfMessage(detail, {
            title: 'title',
            description: 'description',
            price: 'startingPrice',
            date: 'auctionEndDate',
            reserve: 'reservePrice',
            buyNow: 'buyNowPrice',
          } as const)
        : undefined;
      if (detail && field) setError(field, { message: detail }, { shouldFocus: true });
      setFailure(detail && !field ? detail : null);
      return;
    }
    const store = useProfile.getState();
    store.setEditAuctionForm(null);
    void store.load();
    void navigate('/dashboard/my-auctions');
  };

  const error = (key: keyof EditAuctionForm) => errors[key]?.message;
  return (
    <form
      className="card form auction-form"
      noValidate
      onSubmit={(event) => void handleSubmit(onValid)(event)}
    >
      <ImagePicker
        id="edit-photo"
        label="Photo"
        file={photo}
        savedUrl={photoRemoved ? null : auction.image?.url}
        onSelect={(file) => {
          setPhoto(file);
          setPhotoRemoved(false);
        }}
        onRemove={() => {
          setPhoto(null);
          setPhotoRemoved(true);
        }}
        previewAlt={`Photo of ${auction.title}`}
        hint="Max 10MB"
      />
      <TitleField id="edit-title" error={error('title')} registration={register('title')} />
      <DescriptionField
        id="edit-description"
        error={error('description')}
        registration={register('description')}
      />
      <div className="field-row">
        <StartingPriceField
          id="edit-price"
          error={error('startingPrice')}
          registration={register('startingPrice')}
          readOnly={priceLocked}
          hint={priceLocked ? 'The starting price cannot change once bids are placed.' : undefined}
        />
        <EndDateField
          id="edit-end-date"
          error={error('auctionEndDate')}
          registration={register('auctionEndDate')}
          hint="A new date keeps the current time of day."
          min={minDate}
        />
      </div>
      <div className="field-row">
        <OptionalPriceField
          id="edit-reserve"
          label="Reserve price (optional)"
          hint={
            priceLocked
              ? 'With bids placed, the reserve can only be lowered or removed.'
              : 'Your secret minimum: bids below it cannot win. Empty: none.'
          }
          error={error('reservePrice')}
          registration={register('reservePrice')}
        />
        <OptionalPriceField
          id="edit-buy-now"
          label="Buy It Now price (optional)"
          hint={
            priceLocked
              ? 'The Buy It Now price cannot change once bids are placed.'
              : 'Anyone may buy at this price and end the auction at once. Empty: none.'
          }
          error={error('buyNowPrice')}
          registration={register('buyNowPrice')}
          readOnly={priceLocked}
        />
      </div>
      <p className="field-hint">Category: {auction.category.name} (cannot be changed)</p>
      {failure ? (
        <div className="alert alert-danger" role="alert">
          {failure}
        </div>
      ) : null}
      <AuctionFormActions busy={isSubmitting} label="Save Changes" busyLabel="Saving..." />
    </form>
  );
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

/** Edits one of the user's live auctions, found among their own by the route's id (spec §2). */
export const EditAuctionPage = () => {
  const { auctionId = '' } = useParams();
  const location = useLocation();
  const editAuctionForm = useProfile((s) => s.editAuctionForm);
  const [auction, setAuction] = useState<AuctionView | null>(() =>
    editAuctionForm?._id === auctionId ? editAuctionForm : passedAuction(location.state, auctionId),
  );
  const [lookup, setLookup] = useState<'loading' | 'found' | 'missing' | 'failed'>('loading');

  useEffect(() => {
    let active = true;
    // The user's own auctions, page after page until the one of the route turns up.
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
