import { type AuctionView, ProfileView } from '@auction/contracts';
import { z } from 'zod';
import { create } from 'zustand';
import { call } from './api-client';
import { onForgetUser } from './session/forget';
import { notify } from './toast';

const fetchProfile = () => call('/user/profile', z.object({ data: ProfileView }));

interface ProfileState {
  profile: ProfileView | null;
  loading: boolean;
  /** The auction the edit form was opened with, or none. */
  editAuctionForm: AuctionView | null;
  load: () => Promise<void>;
  setEditAuctionForm: (auction: AuctionView | null) => void;
  clear: () => void;
}

/** The profile slice (spec §3): the profile, a loading flag and the auction being edited. */
export const useProfile = create<ProfileState>()((set) => ({
  profile: null,
  loading: false,
  editAuctionForm: null,
  load: async () => {
    set({ loading: true });
    try {
      set({ profile: (await fetchProfile()).data, loading: false });
    } catch {
      set({ loading: false });
      notify.error('Cannot fetch user profile');
    }
  },
  setEditAuctionForm: (editAuctionForm) => set({ editAuctionForm }),
  clear: () => set({ profile: null, loading: false, editAuctionForm: null }),
}));

onForgetUser(() => useProfile.getState().clear());
