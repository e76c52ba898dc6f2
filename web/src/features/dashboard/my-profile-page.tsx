import { Confirm } from '../../components/modal';
import { useProfile } from '../../lib/profile-store';
import { Overview, RecentActivityList, Statistics } from './profile/profile-sections';
import { ProfileTabs } from './profile/profile-tabs';
import { useDeleteAccount } from './profile/use-delete-account';
import './dashboard.css';

/** The profile with Overview, Recent Activity and Statistics tabs, and account deletion. */
export const MyProfilePage = () => {
  const { profile, loading } = useProfile();
  const deletion = useDeleteAccount();

  if (loading && !profile)
    return (
      <p className="dashboard-loading" role="status">
        Loading your profile...
      </p>
    );
  if (!profile)
    return (
      <div className="empty card">
        <h1>Profile Not Found</h1>
        <p>Unable to load your profile data</p>
      </div>
    );

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>My Profile</h1>
          <p className="muted">Your account, activity and numbers at a glance.</p>
        </div>
      </header>
      <ProfileTabs>
        {(tab) =>
          tab === 'Overview' ? (
            <Overview profile={profile} onDelete={deletion.ask} />
          ) : tab === 'Recent Activity' ? (
            <RecentActivityList profile={profile} />
          ) : (
            <Statistics profile={profile} />
          )
        }
      </ProfileTabs>
      {deletion.confirming ? (
        <Confirm
          title="Delete Account"
          question="Are you sure you want to delete your account? This action is permanent."
          busy={deletion.deleting}
          onAnswer={deletion.answer}
        />
      ) : null}
    </section>
  );
};
