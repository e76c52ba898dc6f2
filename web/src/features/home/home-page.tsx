import type { AuctionView } from '@auction/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AuctionCard, AuctionCardSkeleton } from '../../components/auction-card';
import { ListFailed } from '../../components/list-failed';
import { auctionsApi } from '../../lib/auctions-api';
import { FIXED_CATEGORIES } from '../../lib/categories';
import { useRefetchOnReconnect } from '../../lib/use-socket-link';
import { type Feature, FeatureCard, Icon } from '../../components/icons';
import './home.css';

const FEATURES: readonly Feature[] = [
  {
    icon: 'shield',
    title: 'Secure Bidding',
    text: 'Every bid is recorded and verified, and your account is protected at every step.',
  },
  {
    icon: 'globe',
    title: 'Global Community',
    text: 'Meet collectors and enthusiasts from around the world who share your passion.',
  },
  {
    icon: 'bolt',
    title: 'Real-time Updates',
    text: 'Watch bids arrive the moment they are placed and hear instantly when you are outbid.',
  },
];

const FIGURES = [
  { value: '12,500+', label: 'Active Auctions' },
  { value: '85,000+', label: 'Happy Bidders' },
  { value: '$2.5M+', label: 'Items Sold' },
];

const Hero = () => (
  <section className="hero" aria-labelledby="hero-heading">
    <div className="hero-inner">
      <div className="hero-copy">
        <p className="hero-eyebrow">Live auctions, every day</p>
        <h1 id="hero-heading">Discover, bid and win unique treasures</h1>
        <p className="hero-lead">
          Join collectors and enthusiasts bidding in real time on art, jewelry, vehicles, antiques
          and more.
        </p>
        <div className="hero-actions">
          <Link className="btn btn-light btn-lg" to="/login">
            Start Bidding
          </Link>
          <Link className="btn btn-outline-light btn-lg" to="/auctions">
            Browse Auctions
          </Link>
        </div>
      </div>
      <ul className="hero-art" aria-hidden="true">
        {FIXED_CATEGORIES.slice(0, 6).map(({ name, icon }) => (
          <li key={name} className="hero-tile">
            <Icon name={icon} size={34} />
          </li>
        ))}
      </ul>
    </div>
  </section>
);

const WhyChoose = () => (
  <section className="section" aria-labelledby="why-heading">
    <div className="section-inner">
      <h2 id="why-heading" className="section-title">
        Why Choose BidHub?
      </h2>
      <ul className="feature-grid">
        {FEATURES.map((feature) => (
          <FeatureCard key={feature.title} {...feature} />
        ))}
      </ul>
      <dl className="figures">
        {FIGURES.map(({ value, label }) => (
          <div key={label} className="figure">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  </section>
);

/**
 * The featured auctions; fetched again when the socket comes back, and an error with Retry (not
 * the empty state) when they cannot be fetched.
 */
const FeaturedAuctions = () => {
  const [featured, setFeatured] = useState<AuctionView[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const loaded = useRef(false);
  useRefetchOnReconnect(() => setAttempt((n) => n + 1));
  useEffect(() => {
    let current = true;
    auctionsApi.featured().then(
      (result) => {
        if (!current) return;
        setFeatured(result.featured);
        loaded.current = true;
        setFailed(false);
        setLoading(false);
      },
      (error: unknown) => {
        console.error('Cannot fetch featured auctions', error);
        if (!current) return;
        // A refetch that fails keeps the cards shown.
        if (!loaded.current) setFailed(true);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  return (
    <section className="section section-tinted" aria-labelledby="featured-heading">
      <div className="section-inner">
        <h2 id="featured-heading" className="section-title">
          Featured Auctions
        </h2>
        {loading ? (
          <div className="grid featured-grid" aria-hidden="true">
            {[0, 1, 2].map((key) => (
              <AuctionCardSkeleton key={key} />
            ))}
          </div>
        ) : failed ? (
          <ListFailed
            what="featured auctions"
            onRetry={() => {
              setLoading(true);
              setAttempt((n) => n + 1);
            }}
          />
        ) : featured.length === 0 ? (
          <div className="featured-empty">
            <div className="grid featured-grid" aria-hidden="true">
              {[0, 1, 2].map((key) => (
                <AuctionCardSkeleton key={key} />
              ))}
            </div>
            <p className="featured-empty-text">No Featured Auctions Yet!!</p>
          </div>
        ) : (
          <ul className="grid auction-grid featured-grid">
            {featured.map((auction) => (
              <li key={auction._id}>
                <AuctionCard auction={auction} />
              </li>
            ))}
          </ul>
        )}
        <div className="section-more">
          <Link className="btn btn-ghost" to="/auctions">
            See all auctions
          </Link>
        </div>
      </div>
    </section>
  );
};

const ExploreCategories = () => (
  <section className="section" aria-labelledby="categories-heading">
    <div className="section-inner">
      <h2 id="categories-heading" className="section-title">
        Explore Categories
      </h2>
      <ul className="category-grid">
        {FIXED_CATEGORIES.map(({ name, label, icon }) => (
          <li key={name}>
            <Link
              className="category-tile"
              to={`/auctions?${new URLSearchParams({ category: name }).toString()}`}
            >
              <span className="category-icon">
                <Icon name={icon} size={30} />
              </span>
              <span className="category-name">{name}</span>
              <span className="category-count">{label} items</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  </section>
);

const CallToAction = () => (
  <section className="cta" aria-labelledby="cta-heading">
    <div className="cta-inner">
      <h2 id="cta-heading">Ready to start your auction journey?</h2>
      <p>Create a free account to bid on unique items, or turn what you own into cash.</p>
      <div className="hero-actions">
        <Link className="btn btn-light btn-lg" to="/signup">
          Create Account
        </Link>
        <Link className="btn btn-outline-light btn-lg" to="/login">
          Sell Your Items
        </Link>
      </div>
    </div>
  </section>
);

/** The landing page of spec §2: hero, why choose, featured, categories and a call to action. */
export const HomePage = () => (
  <div className="home">
    <Hero />
    <WhyChoose />
    <FeaturedAuctions />
    <ExploreCategories />
    <CallToAction />
  </div>
);
