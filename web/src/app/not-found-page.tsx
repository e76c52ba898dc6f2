import { Link } from 'react-router';

export const NotFoundPage = () => (
  <section className="page narrow center">
    <h1>Page not found</h1>
    <p className="muted">The page you are looking for does not exist.</p>
    <Link className="btn btn-primary" to="/">
      Back to home
    </Link>
  </section>
);
