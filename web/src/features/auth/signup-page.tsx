import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { notify, withLoadingToast } from '../../lib/toast';
import { Field, ImagePicker, fieldAria, refusalMessage } from '../dashboard/form-controls';
import { sessionApi } from '../session/api';
import { useSession } from '../session/store';
import { GoogleButton } from './google-button';
import { SignupForm } from './schemas';
import './auth.css';

const signupFailure = (error: unknown): string => {
  if (error instanceof ApiError && error.status === 0) return 'Something went wrong';
  return refusalMessage(error, [400, 409, 413, 415, 429]) ?? 'Cannot Sign Up Right Now!!';
};

const PersonIcon = () => (
  <svg width="40" height="40" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z" />
  </svg>
);

/** 'Create Account': photo, names, e-mail, password twice, terms; or Google (spec §2, §5). */
export const SignupPage = () => {
  const navigate = useNavigate();
  const setLoading = useSession((s) => s.setLoading);
  const [photo, setPhoto] = useState<File | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignupForm>({
    resolver: zodResolver(SignupForm),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
      terms: false,
    },
  });

  const onInvalid = (invalid: FieldErrors<SignupForm>) => {
    if (invalid.terms) notify.error('Please agree to the terms and conditions');
    if (invalid.confirmPassword?.message === 'Passwords do not match')
      notify.error('Passwords do not match');
  };

  const onValid = async (values: SignupForm) => {
    const form = new FormData();
    form.set('firstName', values.firstName);
    form.set('lastName', values.lastName);
    form.set('email', values.email);
    form.set('password', values.password);
    form.set('confirmPassword', values.confirmPassword);
    form.set('role', 'User');
    if (photo) form.set('image', photo);
    setLoading(true);
    const result = await withLoadingToast(() => sessionApi.signup(form), {
      success: 'Sign Up Successful',
      failure: signupFailure,
    });
    setLoading(false);
    if (result) void navigate('/login', { state: { email: values.email } });
  };

  const error = (key: keyof SignupForm) => errors[key]?.message;
  return (
    <section className="auth-page">
      <div className="auth-card auth-card-wide card">
        <header className="auth-header">
          <h1>Create Account</h1>
          <p className="muted">Join the marketplace to bid on and sell unique items.</p>
        </header>
        <form
          className="form"
          noValidate
          onSubmit={(event) => void handleSubmit(onValid, onInvalid)(event)}
        >
          <ImagePicker
            id="signup-photo"
            label="Profile Photo"
            file={photo}
            onSelect={setPhoto}
            onRemove={() => setPhoto(null)}
            previewAlt="Your profile photo"
            round
            hint="Optional. JPEG, PNG, WebP or GIF, max 10MB."
            placeholder={<PersonIcon />}
          />
          <div className="field-row">
            <Field id="signup-first-name" label="First Name" error={error('firstName')}>
              <input
                type="text"
                autoComplete="given-name"
                {...fieldAria('signup-first-name', error('firstName'))}
                {...register('firstName')}
              />
            </Field>
            <Field id="signup-last-name" label="Last Name" error={error('lastName')}>
              <input
                type="text"
                autoComplete="family-name"
                {...fieldAria('signup-last-name', error('lastName'))}
                {...register('lastName')}
              />
            </Field>
          </div>
          <Field id="signup-email" label="Email" error={error('email')}>
            <input
              type="email"
              autoComplete="email"
              {...fieldAria('signup-email', error('email'))}
              {...register('email')}
            />
          </Field>
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
                {...register('password')}
              />
            </Field>
            <Field id="signup-confirm" label="Confirm Password" error={error('confirmPassword')}>
              <input
                type="password"
                autoComplete="new-password"
                {...fieldAria('signup-confirm', error('confirmPassword'))}
                {...register('confirmPassword')}
              />
            </Field>
          </div>
          <div className="field">
            <div className="checkbox">
              <input
                type="checkbox"
                {...fieldAria('signup-terms', error('terms'))}
                {...register('terms')}
              />
              <label htmlFor="signup-terms">I agree to the terms and conditions</label>
            </div>
            {error('terms') ? (
              <p id="signup-terms-error" className="field-error">
                {error('terms')}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
            {isSubmitting ? 'Creating account...' : 'Create Account'}
          </button>
        </form>
        <p className="divider">or</p>
        <GoogleButton label="Sign up with Google" />
        <p className="auth-switch">
          Already have an account? <Link to="/login">Sign In</Link>
        </p>
      </div>
    </section>
  );
};
