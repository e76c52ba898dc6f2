import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { notify, withLoadingToast } from '../../lib/toast';
import { refusalMessage } from '../../components/form-controls';
import { sessionApi } from '../../lib/session/api';
import { useSession } from '../../lib/session/store';
import { SignupForm } from './schemas';

/** The spec's one toast for a failed sign-up; the reason is shown in the form, where it helps. */
const SIGNUP_FAILED = 'Cannot Sign Up Right Now!!';

const onInvalid = (invalid: FieldErrors<SignupForm>) => {
  if (invalid.terms) notify.error('Please agree to the terms and conditions');
  if (invalid.confirmPassword?.message === 'Passwords do not match')
    notify.error('Passwords do not match');
};

/** The multipart body the sign-up route takes: the fields, the role, the photo when chosen. */
const signupBody = (values: SignupForm, photo: File | null): FormData => {
  const form = new FormData();
  form.set('firstName', values.firstName);
  form.set('lastName', values.lastName);
  form.set('email', values.email);
  form.set('password', values.password);
  form.set('confirmPassword', values.confirmPassword);
  form.set('role', 'User');
  if (photo) form.set('image', photo);
  return form;
};

/**
 * The sign-up form's state: the fields, the chosen photo, and why the server refused the last
 * attempt (on the e-mail when it already exists, otherwise above the button).
 */
export const useSignup = () => {
  const navigate = useNavigate();
  const setLoading = useSession((s) => s.setLoading);
  const [photo, setPhoto] = useState<File | null>(null);
  // Why the server refused the last attempt, when it is not about the e-mail (shown under it).
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<SignupForm>({
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

  const onValid = async (values: SignupForm) => {
    const body = signupBody(values, photo);
    setRefusal(null);
    setLoading(true);
    let failure: unknown;
    const result = await withLoadingToast(() => sessionApi.signup(body), {
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
      form.setError('email', { type: 'server', message: reason }, { shouldFocus: true });
    else setRefusal(reason);
  };

  return {
    form,
    photo,
    /** A new photo, or none, also clears the last refusal (it may have been about the photo). */
    choosePhoto: (file: File | null) => {
      setPhoto(file);
      setRefusal(null);
    },
    refusal,
    onSubmit: form.handleSubmit(onValid, onInvalid),
  };
};
