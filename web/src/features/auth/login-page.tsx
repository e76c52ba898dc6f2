import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Field, fieldAria, refusalMessage } from '../../components/form-controls';
import { notify, withLoadingToast } from '../../lib/toast';
import { sessionApi } from '../../lib/session/api';
import { useSession } from '../../lib/session/store';
import { GOOGLE_ERROR, GoogleButton } from './google-button';
import { LoginForm } from './schemas';
import './auth.css';

const stateString = (state: unknown, key: string): string | null => {
  if (typeof state !== 'object' || state === null) return null;
  const value = (state as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
};

/** 'Welcome Back': e-mail and password, or Google (spec §2, §4, §5). */
export const LoginPage = () => {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const googleErrorShown = useRef(false);
  const { loading, setLoading, signedIn } = useSession();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({
    resolver: zodResolver(LoginForm),
    defaultValues: { email: stateString(location.state, 'email') ?? '', password: '' },
  });

  useEffect(() => {
    if (searchParams.get('error') !== 'google' || googleErrorShown.current) return;
    googleErrorShown.current = true;
    notify.error(GOOGLE_ERROR);
    void navigate({ search: '' }, { replace: true, state: location.state as unknown });
  }, [searchParams, navigate, location.state]);

  const onValid = async ({ email, password }: LoginForm) => {
    setLoading(true);
    const result = await withLoadingToast(() => sessionApi.login(email, password), {
      key: 'login',
      success: 'Logged In',
      failure: (error) => refusalMessage(error, [429]) ?? 'Login Failed',
    });
    if (!result) {
      setLoading(false);
      return;
    }
    reset({ email: '', password: '' });
    // The guest-only guard takes the signed-in user to the profile, or back where they came from.
    signedIn(result.user);
  };

  const busy = loading || isSubmitting;
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <header className="auth-header">
          <h1>Welcome Back</h1>
          <p className="muted">Sign in to bid, sell and follow your auctions.</p>
        </header>
        <form className="form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
          <Field id="login-email" label="Email" error={errors.email?.message}>
            <input
              type="email"
              autoComplete="email"
              {...fieldAria('login-email', errors.email?.message)}
              {...register('email')}
            />
          </Field>
          <Field id="login-password" label="Password" error={errors.password?.message}>
            <input
              type="password"
              autoComplete="current-password"
              {...fieldAria('login-password', errors.password?.message)}
              {...register('password')}
            />
          </Field>
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Signing in...' : 'Sign In'}
          </button>
        </form>
        <p className="divider">or</p>
        <GoogleButton label="Sign in with Google" />
        <p className="auth-switch">
          Don&apos;t have an account? <Link to="/signup">Sign Up</Link>
        </p>
      </div>
    </section>
  );
};
