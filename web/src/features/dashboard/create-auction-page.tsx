import { type CategoryView, IncrementRule } from '@auction/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { useNow } from '../../lib/use-now';
import { notify, withLoadingToast } from '../../lib/toast';
import { auctionsApi } from '../../lib/auctions-api';
import {
  categoryField,
  createAuctionEnd,
  createAuctionEndHint,
  createEndDateField,
  descriptionField,
  earliestCreateEndDate,
  fieldOfMessage,
  optionalPriceField,
  startingPriceField,
  titleField,
} from './auction-form';
import { Field, ImagePicker, fieldAria, refusalMessage } from '../../components/form-controls';
import {
  AuctionFormActions,
  BiddingRulesFields,
  DescriptionField,
  EndDateField,
  OptionalPriceField,
  StartingPriceField,
  TitleField,
} from './auction-fields';
import { useProfile } from '../../lib/profile-store';
import './dashboard.css';

const CreateAuctionForm = z.object({
  title: titleField,
  description: descriptionField,
  category: categoryField,
  startingPrice: startingPriceField,
  auctionDate: createEndDateField(),
  reservePrice: optionalPriceField('reservePrice'),
  buyNowPrice: optionalPriceField('buyNowPrice'),
  increments: IncrementRule,
  softClose: z.boolean(),
});
type CreateAuctionForm = z.infer<typeof CreateAuctionForm>;

/** Title, description, category, starting price, end date and an optional image (spec §2, §5). */
export const CreateAuctionPage = () => {
  const navigate = useNavigate();
  const [categories, setCategories] = useState<CategoryView[]>([]);
  const [image, setImage] = useState<File | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<CreateAuctionForm>({
    resolver: zodResolver(CreateAuctionForm),
    defaultValues: {
      title: '',
      description: '',
      category: '',
      startingPrice: '',
      auctionDate: '',
      reservePrice: '',
      buyNowPrice: '',
      increments: 'one-dollar',
      softClose: false,
    },
  });

  useEffect(() => {
    let active = true;
    // The picker offers every category: page after page.
    auctionsApi
      .allCategories()
      .then((all) => {
        if (active) setCategories(all);
      })
      .catch((error: unknown) => {
        console.error(error);
        if (active) notify.error('Failed to display Category');
      });
    return () => {
      active = false;
    };
  }, []);

  const onValid = async (values: CreateAuctionForm) => {
    setFailure(null);
    const form = new FormData();
    form.set('title', values.title);
    form.set('description', values.description);
    form.set('category', values.category);
    form.set('startingPrice', values.startingPrice);
    if (values.reservePrice !== '') form.set('reservePrice', values.reservePrice);
    if (values.buyNowPrice !== '') form.set('buyNowPrice', values.buyNowPrice);
    // Both sent as chosen: the server's defaults are its operator's, which the form cannot know.
    form.set('increments', values.increments);
    form.set('softClose', String(values.softClose));
    // No date: the default end; today: 11:59 PM (the current time of day would be past on arrival).
    form.set('auctionDate', createAuctionEnd(values.auctionDate).at.toISOString());
    if (image) form.set('image', image);
    const refusal: { detail: string | null } = { detail: null };
    const result = await withLoadingToast(() => auctionsApi.create(form), {
      success: 'Auction Created',
      failure: (error) => {
        refusal.detail = refusalMessage(error, [400, 413, 415]);
        return refusal.detail
          ? `Cannot Create Auction: ${refusal.detail}`
          : 'Cannot Create Auction';
      },
    });
    if (!result) {
      const { detail } = refusal;
      const field = detail
        ? fieldOfMessage(detail, {
            title: 'title',
            description: 'description',
            category: 'category',
            price: 'startingPrice',
            date: 'auctionDate',
            reserve: 'reservePrice',
            buyNow: 'buyNowPrice',
          } as const)
        : undefined;
      if (detail && field) setError(field, { message: detail }, { shouldFocus: true });
      setFailure(detail && !field ? detail : '');
      return;
    }
    void useProfile.getState().load();
    void navigate('/dashboard/my-auctions');
  };

  const error = (key: keyof CreateAuctionForm) => errors[key]?.message;
  // The hint states the end the date stands for, kept current while the page is open.
  const now = new Date(useNow(30_000));
  const endDate = watch('auctionDate');
  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>Create Auction</h1>
          <p className="muted">
            Describe your item, set a starting price and pick when bidding ends.
          </p>
        </div>
      </header>
      <form
        className="card form auction-form"
        noValidate
        onSubmit={(event) => {
          // A new attempt clears the last one's failure, even one the form stops before sending.
          setFailure(null);
          void handleSubmit(onValid)(event);
        }}
      >
        <TitleField id="auction-title" error={error('title')} registration={register('title')} />
        <DescriptionField
          id="auction-description"
          error={error('description')}
          registration={register('description')}
        />
        <div className="field-row">
          <div className="stack category-field">
            <Field id="auction-category" label="Category" error={error('category')}>
              <select
                {...fieldAria('auction-category', error('category'))}
                {...register('category')}
              >
                <option value="">Select a category</option>
                {categories.map((category) => (
                  <option key={category._id} value={category._id}>
                    {category.name}
                  </option>
                ))}
              </select>
            </Field>
            <Link to="/dashboard/create-category" className="field-link">
              Missing a category? Create one
            </Link>
          </div>
          <StartingPriceField
            id="auction-price"
            error={error('startingPrice')}
            registration={register('startingPrice')}
          />
        </div>
        <div className="field-row">
          <OptionalPriceField
            id="auction-reserve"
            label="Reserve price (optional)"
            hint="Your secret minimum: bids below it cannot win. Bidders only see whether it is met."
            error={error('reservePrice')}
            registration={register('reservePrice')}
          />
          <OptionalPriceField
            id="auction-buy-now"
            label="Buy It Now price (optional)"
            hint="Anyone may buy at this price and end the auction at once, until bids reach the reserve (or the first bid)."
            error={error('buyNowPrice')}
            registration={register('buyNowPrice')}
          />
        </div>
        <BiddingRulesFields increments={register('increments')} softClose={register('softClose')} />
        <p className="alert alert-warning" role="note">
          The category cannot be changed after the auction is created.
        </p>
        <EndDateField
          id="auction-end-date"
          error={error('auctionDate')}
          registration={register('auctionDate')}
          hint={createAuctionEndHint(endDate, now)}
          min={earliestCreateEndDate(now)}
        />
        <ImagePicker
          id="auction-image"
          label="Image"
          file={image}
          onSelect={setImage}
          onRemove={() => setImage(null)}
          previewAlt="Preview of the auction image"
          hint="Max 10MB"
        />
        {failure !== null ? (
          <div className="alert alert-danger" role="alert">
            Failed to create auction. Please try again.
            {failure ? <span className="alert-detail">{failure}</span> : null}
          </div>
        ) : null}
        <AuctionFormActions busy={isSubmitting} label="Create Auction" busyLabel="Creating..." />
      </form>
    </section>
  );
};
