import { Link } from 'react-router';

const columns = [
  { title: 'Marketplace', links: ['Browse Auctions', 'Categories', 'How it Works'] },
  { title: 'Support', links: ['Help Center', 'Safety', 'Contact Us'] },
  { title: 'Company', links: ['About', 'Careers', 'Privacy Policy'] },
];

/** Placeholder links and the year 2025 (spec §2). */
export const Footer = () => (
  <footer className="footer">
    <div className="footer-inner">
      <div className="footer-brand">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{' '}
          BidHub
        </Link>
        <p>Live auctions for collectors and enthusiasts.</p>
      </div>
      {columns.map((column) => (
        <nav key={column.title} aria-label={column.title} className="footer-column">
          <h2>{column.title}</h2>
          <ul>
            {column.links.map((label) => (
              <li key={label}>
                <a href="#" onClick={(event) => event.preventDefault()}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ))}
    </div>
    <p className="footer-copy">© 2025 BidHub. All rights reserved.</p>
  </footer>
);
