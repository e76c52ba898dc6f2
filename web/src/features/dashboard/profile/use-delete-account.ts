import { useState } from 'react';
import { useNavigate } from 'react-router';
import { withLoadingToast } from '../../../lib/toast';
import { sessionApi } from '../../../lib/session/api';
import { forgetUser } from '../../../lib/session/log-out';

/** Delete Account: the confirmation open, the call on its way, and on success home, logged out. */
export const useDeleteAccount = () => {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const deleteAccount = async () => {
    setDeleting(true);
    const result = await withLoadingToast(() => sessionApi.deleteAccount(), {
      success: 'Account Removed',
      failure: () => 'Something went wrong',
    });
    setDeleting(false);
    setConfirming(false);
    if (!result) return;
    forgetUser('/');
    void navigate('/', { replace: true });
  };

  return {
    confirming,
    deleting,
    ask: () => setConfirming(true),
    answer: (yes: boolean) => (yes ? void deleteAccount() : setConfirming(false)),
  };
};
