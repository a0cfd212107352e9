/** Shown for any route that does not exist. */
import { Link } from "wouter";
import { PublicLayout } from "../components/SiteChrome.tsx";

export function NotFoundPage() {
  return (
    <PublicLayout>
      <section className="container not-found">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <h1>Page not found</h1>
        <p className="muted">The page you are looking for does not exist or has moved.</p>
        <Link href="/" className="btn btn-primary">
          Back to Home
        </Link>
      </section>
    </PublicLayout>
  );
}
