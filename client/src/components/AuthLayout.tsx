/** The centred card the sign-in and sign-up forms sit in. */
import type { ReactNode } from "react";
import { PublicLayout } from "./SiteChrome.tsx";

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <PublicLayout>
      <section className="auth-wrap">
        <div className="card auth-card">{children}</div>
      </section>
    </PublicLayout>
  );
}
