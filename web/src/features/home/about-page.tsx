import { Link } from 'react-router';
import { type Feature, FeatureCard } from '../../components/icons';
import './home.css';

const POINTS: readonly Feature[] = [
  {
    icon: 'bolt',
    title: 'Live bidding',
    text: 'Bids appear on every open auction page the moment they are placed, with no reload.',
  },
  {
    icon: 'bell',
    title: 'Instant notifications',
    text: 'You hear right away when someone outbids you and when you win an auction.',
  },
  {
    icon: 'globe',
    title: 'A global community',
    text: 'Buyers and sellers from everywhere meet around the things they collect and love.',
  },
  {
    icon: 'devices',
    title: 'Access from any device',
    text: 'Browse, bid and sell from a phone, a tablet or a desktop computer.',
  },
];

/** Spec §1: a test project by one developer, MERN stack and sockets, and four selling points. */
export const AboutPage = () => (
  <div className="about">
    <section className="about-hero" aria-labelledby="about-heading">
      <div className="about-hero-inner">
        <h1 id="about-heading">About BidHub</h1>
        <p className="about-lead">
          BidHub is a test project: a real-time online auction marketplace built by a single
          developer with the MERN stack (MongoDB, Express, React and Node.js) and sockets for live
          updates.
        </p>
      </div>
    </section>

    <section className="section" aria-labelledby="about-points-heading">
      <div className="section-inner">
        <h2 id="about-points-heading" className="section-title">
          What you get
        </h2>
        <ul className="about-points">
          {POINTS.map((feature) => (
            <FeatureCard key={feature.title} {...feature} />
          ))}
        </ul>
        <div className="about-actions">
          <Link className="btn btn-primary" to="/auctions">
            Browse Auctions
          </Link>
          <Link className="btn btn-ghost" to="/signup">
            Create Account
          </Link>
        </div>
      </div>
    </section>
  </div>
);
