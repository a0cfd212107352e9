/** Client entry: providers (theme, React Query, tRPC, session) around the routes. */
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { makeQueryClient, makeTrpcClient, TRPCProvider } from "./lib/trpc.ts";
import { AuthProvider } from "./lib/auth.tsx";
import { ThemeProvider } from "./lib/theme.tsx";
import { App } from "./App.tsx";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { activateLocale, initialLocale, markAddressChoice } from "./i18n/locale.ts";
import "./i18n/catalog/common/index.ts";
import "./styles.css";
import "./kit/kit.css";
import "./components/shell/shell.css";

function Root() {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <I18nProvider i18n={i18n}>
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <AuthProvider>
            <App />
          </AuthProvider>
        </TRPCProvider>
      </QueryClientProvider>
    </ThemeProvider>
    </I18nProvider>
  );
}

// The interface (and its dates) in the viewer's language from the first paint: English loads nothing; another language its catalogues in use and its dayjs locale, as small chunks.
markAddressChoice();
void activateLocale(initialLocale()).finally(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
