import type { AuctionView } from '@auction/contracts';
import { create } from 'zustand';
import { notify } from '../../lib/toast';
import { type Profile, dashboardApi } from './api';

interface ProfileState {
  profile: Profile | null;
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
      set({ profile: (await dashboardApi.profile()).data, loading: false });
    } catch {
      set({ loading: false });
      notify.error('Cannot fetch user profile');
    }
  },
  setEditAuctionForm: (editAuctionForm) => set({ editAuctionForm }),
  clear: () => set({ profile: null, loading: false, editAuctionForm: null }),
}));
