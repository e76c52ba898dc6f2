import { useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Slide, ToastContainer } from 'react-toastify';
import { AboutPage } from '../features/home/about-page';
import { AllAuctionsPage } from '../features/auctions/all-auctions-page';
import { AuctionDetailPage } from '../features/auctions/auction-detail-page';
import { AuditPage } from '../features/audit/audit-page';
import { LoginPage } from '../features/auth/login-page';
import { SignupPage } from '../features/auth/signup-page';
import { AuctionsWonPage } from '../features/dashboard/auctions-won-page';
import { CreateAuctionPage } from '../features/dashboard/create-auction-page';
import { CreateCategoryPage } from '../features/dashboard/create-category-page';
import { DashboardLayout } from '../features/dashboard/dashboard-layout';
import { EditAuctionPage } from '../features/dashboard/edit-auction-page';
import { HistoryPage } from '../features/dashboard/history-page';
import { MyAuctionsPage } from '../features/dashboard/my-auctions-page';
import { MyProfilePage } from '../features/dashboard/my-profile-page';
import { HomePage } from '../features/home/home-page';
import { useSession } from '../features/session/store';
import { Footer } from './footer';
import { GuestOnly, Protected } from './guards';
import { Navbar } from './navbar';
import { NotFoundPage } from './not-found-page';

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
              <Route path="create-category" element={<CreateCategoryPage />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
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
