import type { UseFormReturn } from 'react-hook-form';
import { Field, fieldAria } from '../../components/form-controls';
import type { SignupForm } from './schemas';

/** The sign-up form as `useSignup` holds it; each group of fields reads its own. */
interface FieldsProps {
  form: UseFormReturn<SignupForm>;
}

const messageOf = (form: UseFormReturn<SignupForm>, key: keyof SignupForm) =>
  form.formState.errors[key]?.message;

export const PersonIcon = () => (
  <svg width="40" height="40" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z" />
  </svg>
);

export const NameFields = ({ form }: FieldsProps) => {
  const error = (key: keyof SignupForm) => messageOf(form, key);
  return (
    <div className="field-row">
      <Field id="signup-first-name" label="First Name" error={error('firstName')}>
        <input
          type="text"
          autoComplete="given-name"
          {...fieldAria('signup-first-name', error('firstName'))}
          {...form.register('firstName')}
        />
      </Field>
      <Field id="signup-last-name" label="Last Name" error={error('lastName')}>
        <input
          type="text"
          autoComplete="family-name"
          {...fieldAria('signup-last-name', error('lastName'))}
          {...form.register('lastName')}
        />
      </Field>
    </div>
  );
};

export const EmailField = ({ form }: FieldsProps) => {
  const error = messageOf(form, 'email');
  return (
    <Field id="signup-email" label="Email" error={error}>
      <input
        type="email"
        autoComplete="email"
        {...fieldAria('signup-email', error)}
        {...form.register('email', {
          // The server's "already exists" goes once the address it was about is changed.
          onChange: () => {
            if (form.formState.errors.email?.type === 'server') form.clearErrors('email');
          },
        })}
      />
    </Field>
  );
};

export const PasswordFields = ({ form }: FieldsProps) => {
  const error = (key: keyof SignupForm) => messageOf(form, key);
  return (
    <div className="field-row">
      <Field
        id="signup-password"
        label="Password"
        error={error('password')}
        hint="At least 8 characters, with uppercase, lowercase and a number."
      >
        <input
          type="password"
          autoComplete="new-password"
          {...fieldAria('signup-password', error('password'), true)}
          {...form.register('password')}
        />
      </Field>
      <Field id="signup-confirm" label="Confirm Password" error={error('confirmPassword')}>
        <input
          type="password"
          autoComplete="new-password"
          {...fieldAria('signup-confirm', error('confirmPassword'))}
          {...form.register('confirmPassword')}
        />
      </Field>
    </div>
  );
};

export const TermsField = ({ form }: FieldsProps) => {
  const error = messageOf(form, 'terms');
  return (
    <div className="field">
      <div className="checkbox">
        <input type="checkbox" {...fieldAria('signup-terms', error)} {...form.register('terms')} />
        <label htmlFor="signup-terms">I agree to the terms and conditions</label>
      </div>
      {error ? (
        <p id="signup-terms-error" className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
};
