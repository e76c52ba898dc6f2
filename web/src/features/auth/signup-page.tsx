import { Link } from 'react-router';
import { ImagePicker } from '../../components/form-controls';
import { GoogleButton } from './google-button';
import { EmailField, NameFields, PasswordFields, PersonIcon, TermsField } from './signup-fields';
import { useSignup } from './use-signup';
import './auth.css';

/** 'Create Account': photo, names, e-mail, password twice, terms; or Google (spec §2, §5). */
export const SignupPage = () => {
  const { form, photo, choosePhoto, refusal, onSubmit } = useSignup();
  const { isSubmitting } = form.formState;
  return (
    <section className="auth-page">
      <div className="auth-card auth-card-wide card">
        <header className="auth-header">
          <h1>Create Account</h1>
          <p className="muted">Join the marketplace to bid on and sell unique items.</p>
        </header>
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <ImagePicker
            id="signup-photo"
            label="Profile Photo"
            file={photo}
            onSelect={choosePhoto}
            onRemove={() => choosePhoto(null)}
            previewAlt="Your profile photo"
            round
            hint="Optional. JPEG, PNG, WebP or GIF, max 10MB."
            placeholder={<PersonIcon />}
          />
          <NameFields form={form} />
          <EmailField form={form} />
          <PasswordFields form={form} />
          <TermsField form={form} />
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
