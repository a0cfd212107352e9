/** Shown for any address the client has no page for (the server answers it with HTTP 404). */
import { ErrorPage } from "../components/shell/ErrorPage.tsx";

export function NotFoundPage() {
  return <ErrorPage kind="notFound" />;
}
