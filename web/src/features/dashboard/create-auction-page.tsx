import { type CategoryView, IncrementRule } from '@auction/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { type FormEvent, useEffect, useState } from 'react';
import { type UseFormRegisterReturn, type UseFormReturn, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { useNow } from '../../lib/use-now';
import { notify } from '../../lib/toast';
import { auctionsApi } from '../../lib/auctions-api';
import {
  categoryField,
  checkPriceRules,
  createAuctionEnd,
  createAuctionEndHint,
  createEndDateField,
  descriptionField,
  earliestCreateEndDate,
  optionalPriceField,
  startingPriceField,
  titleField,
} from './auction-form';
import { Field, fieldAria } from '../../components/form-controls';
import { BiddingRulesFields, EndDateField } from './auction-fields';
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

const CreateAuctionForm = z
  .object({
    title: titleField,
    description: descriptionField,
    category: categoryField,
    startingPrice: startingPriceField,
    auctionDate: createEndDateField(),
    reservePrice: optionalPriceField('reservePrice'),
    buyNowPrice: optionalPriceField('buyNowPrice'),
    increments: IncrementRule,
    softClose: z.boolean(),
  })
  .superRefine(checkPriceRules);
type CreateAuctionForm = z.infer<typeof CreateAuctionForm>;

const EMPTY: CreateAuctionForm = {
  title: '',
  description: '',
  category: '',
  startingPrice: '',
  auctionDate: '',
  reservePrice: '',
  buyNowPrice: '',
  increments: 'one-dollar',
  softClose: false,
};

/** Which field a refusal's message lands on. */
const REFUSED_FIELDS = {
  title: 'title',
  description: 'description',
  category: 'category',
  price: 'startingPrice',
  date: 'auctionDate',
  reserve: 'reservePrice',
  buyNow: 'buyNowPrice',
} as const;

const formDataOf = (values: CreateAuctionForm, image: File | null): FormData => {
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
  return form;
};

/** The picker offers every category: page after page. */
const useCategories = (): CategoryView[] => {
  const [categories, setCategories] = useState<CategoryView[]>([]);
  useEffect(() => {
    let active = true;
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
  return categories;
};

/** The create form's state and its submit: a refusal lands on its field, or above the buttons. */
const useCreateAuctionForm = () => {
  const navigate = useNavigate();
  const image = useImageChoice();
  // Null: no failure shown; empty: a failure the server did not explain.
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CreateAuctionForm>({
    resolver: zodResolver(CreateAuctionForm),
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, setError, formState } = form;

  const onValid = async (values: CreateAuctionForm) => {
    setFailure(null);
    const sent = await sendAuctionForm(() => auctionsApi.create(formDataOf(values, image.file)), {
      success: 'Auction Created',
      statuses: [400, 413, 415],
    });
    if (sent.refused) {
      // At its field when the server's message names one; else once, in the form.
      const unplaced = placeRefusal(sent.detail, REFUSED_FIELDS, (field, message) =>
        setError(field, { message }, { shouldFocus: true }),
      );
      if (unplaced !== null || sent.detail === null) {
        // A failure no field explains: the spec's toast and the form's message, both.
        notify.error(unplaced ? `Cannot Create Auction: ${unplaced}` : 'Cannot Create Auction');
        setFailure(unplaced ?? '');
      }
      return;
    }
    void useProfile.getState().load();
    void navigate('/dashboard/my-auctions');
  };

  return {
    form,
    image,
    failure,
    field: (name: keyof CreateAuctionForm): WiredField => ({
      error: formState.errors[name]?.message,
      registration: register(name),
    }),
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      // A new attempt clears the last one's failure, even one the form stops before sending.
      setFailure(null);
      void handleSubmit(onValid)(event);
    },
  };
};

/** Title, description, category, starting price, end date and an optional image (spec §2, §5). */
export const CreateAuctionPage = () => {
  const categories = useCategories();
  const { form, image, failure, field, onSubmit } = useCreateAuctionForm();
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
      <AuctionDetailsForm
        ids="auction"
        field={field}
        hints={{
          reservePrice:
            'Your secret minimum: bids below it cannot win. Bidders only see whether it is met.',
          buyNowPrice:
            'Anyone may buy at this price and end the auction at once, until bids reach the reserve (or the first bid).',
        }}
        beforePrice={<CategoryPicker categories={categories} {...field('category')} />}
        bottom={<CreateOnly form={form} image={image} endDate={field('auctionDate')} />}
        failure={
          failure !== null ? (
            <div className="alert alert-danger" role="alert">
              Failed to create auction. Please try again.
              {failure ? <span className="alert-detail">{failure}</span> : null}
            </div>
          ) : null
        }
        onSubmit={onSubmit}
        submit={{
          busy: form.formState.isSubmitting,
          label: 'Create Auction',
          busyLabel: 'Creating...',
        }}
      />
    </section>
  );
};

const CategoryPicker = ({
  categories,
  error,
  registration,
}: {
  categories: readonly CategoryView[];
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) => (
  <div className="stack category-field">
    <Field id="auction-category" label="Category" error={error}>
      <select {...fieldAria('auction-category', error)} {...registration}>
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
);

/** What only a new auction is asked: its bidding rules, its end date and its image. */
const CreateOnly = ({
  form: { register, watch },
  image,
  endDate,
}: {
  form: UseFormReturn<CreateAuctionForm>;
  image: ImageChoice;
  endDate: WiredField;
}) => {
  // The hint states the end the date stands for, kept current while the page is open.
  const now = new Date(useNow(30_000));
  return (
    <>
      <BiddingRulesFields increments={register('increments')} softClose={register('softClose')} />
      <p className="alert alert-warning" role="note">
        The category cannot be changed after the auction is created.
      </p>
      <EndDateField
        id="auction-end-date"
        {...endDate}
        hint={createAuctionEndHint(watch('auctionDate'), now)}
        min={earliestCreateEndDate(now)}
      />
      <AuctionImageField
        id="auction-image"
        label="Image"
        choice={image}
        previewAlt="Preview of the auction image"
      />
    </>
  );
};
