import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { notify, withLoadingToast } from '../../lib/toast';
import { Field, ImagePicker, fieldAria, refusalMessage } from '../../components/form-controls';
import { sessionApi } from '../../lib/session/api';
import { useSession } from '../../lib/session/store';
import { GoogleButton } from './google-button';
import { SignupForm } from './schemas';
import './auth.css';

/** The spec's one toast for a failed sign-up; the reason is shown in the form, where it helps. */
const SIGNUP_FAILED = 'Cannot Sign Up Right Now!!';

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
  // Why the server refused the last attempt, when it is not about the e-mail (shown under it).
  const [refusal, setRefusal] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
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
    setRefusal(null);
    setLoading(true);
    let failure: unknown;
    const result = await withLoadingToast(() => sessionApi.signup(form), {
      key: 'signup',
      success: 'Sign Up Successful',
      failure: (error) => {
        failure = error;
        return SIGNUP_FAILED;
      },
    });
    setLoading(false);
    if (result) {
      void navigate('/login', { state: { email: values.email } });
      return;
    }
    const reason = refusalMessage(failure, [400, 409, 413, 415, 429]);
    if (failure instanceof ApiError && failure.status === 409 && reason)
      setError('email', { type: 'server', message: reason }, { shouldFocus: true });
    else setRefusal(reason);
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
            onSelect={(file) => {
              setPhoto(file);
              setRefusal(null);
            }}
            onRemove={() => {
              setPhoto(null);
              setRefusal(null);
            }}
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
              {...register('email', {
                // The server's "already exists" goes once the address it was about is changed.
                onChange: () => {
                  if (errors.email?.type === 'server') clearErrors('email');
                },
              })}
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
          {refusal ? (
            <p className="alert alert-danger" role="alert">
              {refusal}
            </p>
          ) : null}
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
