/** The centred card the sign-in and sign-up forms sit in, inside the one page wrapper. */
import type { ReactNode } from "react";
import { Page } from "./shell/Page.tsx";

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Page title={title} width="bare">
      <section className="auth-wrap">
        <div className="card auth-card">{children}</div>
      </section>
    </Page>
  );
}
