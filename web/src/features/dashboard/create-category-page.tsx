import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { messageOf } from '../../lib/api-client';
import { withLoadingToast } from '../../lib/toast';
import { auctionsApi } from '../../lib/auctions-api';
import { CategoryForm } from './auction-form';
import { Field, fieldAria } from '../../components/form-controls';
import './dashboard.css';

/** A name and description form, beside the categories already in use (spec §2, §4). */
export const CreateCategoryPage = () => {
  const [names, setNames] = useState<string[]>([]);
  const [loaded, setLoaded] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CategoryForm>({
    resolver: zodResolver(CategoryForm),
    defaultValues: { name: '', description: '' },
  });

  useEffect(() => {
    let active = true;
    auctionsApi
      .categories()
      .then(({ categories }) => {
        if (active) setNames(categories.map((category) => category.name));
      })
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        if (active) setLoaded(true);
      });
    return () => {
      active = false;
    };
  }, []);

  const onValid = async (values: CategoryForm) => {
    const result = await withLoadingToast(
      () => auctionsApi.createCategory(values.name, values.description),
      {
        success: 'Category Created',
        failure: (error) => messageOf(error, 'Cannot create category'),
      },
    );
    if (!result) return;
    setNames((list) => [...list, result.category?.name ?? values.name]);
    reset();
  };

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>Create Category</h1>
          <p className="muted">Add a category for items that do not fit the existing ones.</p>
        </div>
      </header>
      <div className="category-layout">
        <form
          className="card form"
          noValidate
          onSubmit={(event) => void handleSubmit(onValid)(event)}
        >
          <Field id="category-name" label="Name" error={errors.name?.message}>
            <input
              type="text"
              maxLength={80}
              {...fieldAria('category-name', errors.name?.message)}
              {...register('name')}
            />
          </Field>
          <Field id="category-description" label="Description" error={errors.description?.message}>
            <textarea
              rows={4}
              maxLength={1000}
              {...fieldAria('category-description', errors.description?.message)}
              {...register('description')}
            />
          </Field>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            Create Category
          </button>
        </form>
        <section className="card category-list" aria-labelledby="famous-categories">
          <h2 id="famous-categories">Some Famous Categories already used</h2>
          {!loaded ? (
            <p className="muted" role="status">
              Loading categories...
            </p>
          ) : names.length === 0 ? (
            <p className="muted">No Categories Yet!!</p>
          ) : (
            <ul className="chips">
              {names.map((name, index) => (
                <li key={`${name}-${index}`} className="chip">
                  {name}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
};
