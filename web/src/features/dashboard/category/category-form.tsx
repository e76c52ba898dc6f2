import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { messageOf } from '../../../lib/api-client';
import { withLoadingToast } from '../../../lib/toast';
import { auctionsApi } from '../../../lib/auctions-api';
import { Field, fieldAria } from '../../../components/form-controls';
import { CategoryForm } from '../auction-form';

/** Name and description; a created category is handed to `onCreated` and the form emptied. */
export const CreateCategoryForm = ({ onCreated }: { onCreated: (name: string) => void }) => {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CategoryForm>({
    resolver: zodResolver(CategoryForm),
    defaultValues: { name: '', description: '' },
  });

  const onValid = async (values: CategoryForm) => {
    const result = await withLoadingToast(
      () => auctionsApi.createCategory(values.name, values.description),
      {
        success: 'Category Created',
        failure: (error) => messageOf(error, 'Cannot create category'),
      },
    );
    if (!result) return;
    onCreated(result.category?.name ?? values.name);
    reset();
  };

  return (
    <form className="card form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
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
  );
};
