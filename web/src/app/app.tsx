import { Suspense, lazy, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Slide, ToastContainer } from 'react-toastify';
import { useSession } from '../lib/session/store';
import { Spinner } from '../components/status';
import { Footer } from './footer';
import { GuestOnly, Protected } from './guards';
import { Navbar } from './navbar';
import { NotFoundPage } from './not-found-page';

// Every page loads on demand (its own chunk, fetched when its route is first shown): the first
// load carries the app's shell (navbar, footer, session, router) and the page it opens on.
const HomePage = lazy(() =>
  import('../features/home/home-page').then((m) => ({ default: m.HomePage })),
);
const AboutPage = lazy(() =>
  import('../features/home/about-page').then((m) => ({ default: m.AboutPage })),
);
const AllAuctionsPage = lazy(() =>
  import('../features/auctions/all-auctions-page').then((m) => ({ default: m.AllAuctionsPage })),
);
const AuctionDetailPage = lazy(() =>
  import('../features/auctions/auction-detail-page').then((m) => ({
    default: m.AuctionDetailPage,
  })),
);
const AuditPage = lazy(() =>
  import('../features/audit/audit-page').then((m) => ({ default: m.AuditPage })),
);
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })),
);
const SignupPage = lazy(() =>
  import('../features/auth/signup-page').then((m) => ({ default: m.SignupPage })),
);
const AuctionsWonPage = lazy(() =>
  import('../features/dashboard/auctions-won-page').then((m) => ({ default: m.AuctionsWonPage })),
);
const CreateAuctionPage = lazy(() =>
  import('../features/dashboard/create-auction-page').then((m) => ({
    default: m.CreateAuctionPage,
  })),
);
const CreateCategoryPage = lazy(() =>
  import('../features/dashboard/create-category-page').then((m) => ({
    default: m.CreateCategoryPage,
  })),
);
const DashboardLayout = lazy(() =>
  import('../features/dashboard/dashboard-layout').then((m) => ({ default: m.DashboardLayout })),
);
const EditAuctionPage = lazy(() =>
  import('../features/dashboard/edit-auction-page').then((m) => ({ default: m.EditAuctionPage })),
);
const HistoryPage = lazy(() =>
  import('../features/dashboard/history-page').then((m) => ({ default: m.HistoryPage })),
);
const MyAuctionsPage = lazy(() =>
  import('../features/dashboard/my-auctions-page').then((m) => ({ default: m.MyAuctionsPage })),
);
const WatchlistPage = lazy(() =>
  import('../features/dashboard/watchlist-page').then((m) => ({ default: m.WatchlistPage })),
);
const MyProfilePage = lazy(() =>
  import('../features/dashboard/my-profile-page').then((m) => ({ default: m.MyProfilePage })),
);

/** The route table of spec §2, with its guards. */
export const App = () => {
  const { pathname } = useLocation();
  const exitTo = useSession((s) => s.exitTo);
  useEffect(() => {
    void useSession.getState().confirm();
  }, []);
  useEffect(() => {
    if (exitTo === pathname) useSession.setState({ exitTo: null });
  }, [exitTo, pathname]);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="main">
        <Suspense fallback={<Spinner label="Loading the page" />}>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="/about" element={<AboutPage />} />
            <Route path="/auctions" element={<AllAuctionsPage />} />
            <Route path="/auction/:auctionId" element={<AuctionDetailPage />} />
            <Route element={<GuestOnly />}>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/signup" element={<SignupPage />} />
            </Route>
            <Route element={<Protected />}>
              <Route path="/audit/auction/:auctionId" element={<AuditPage />} />
              <Route path="/dashboard" element={<DashboardLayout />}>
                <Route index element={<Navigate to="my-profile" replace />} />
                <Route path="my-profile" element={<MyProfilePage />} />
                <Route path="my-auctions" element={<MyAuctionsPage />} />
                <Route path="create-auction" element={<CreateAuctionPage />} />
                <Route path="edit-auction/:auctionId" element={<EditAuctionPage />} />
                <Route path="auctions-won" element={<AuctionsWonPage />} />
                <Route path="history" element={<HistoryPage />} />
                <Route path="watchlist" element={<WatchlistPage />} />
                <Route path="create-category" element={<CreateCategoryPage />} />
              </Route>
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </main>
      <Footer />
      <ToastContainer
        position="top-right"
        autoClose={5000}
        hideProgressBar={false}
        closeOnClick
        pauseOnHover
        newestOnTop
        transition={Slide}
      />
    </div>
  );
};
