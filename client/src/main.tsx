/** Client entry: providers (theme, React Query, tRPC, session) around the routes. */
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { makeQueryClient, makeTrpcClient, TRPCProvider } from "./lib/trpc.ts";
import { AuthProvider } from "./lib/auth.tsx";
import { ThemeProvider } from "./lib/theme.tsx";
import { App } from "./App.tsx";
import { loadViewerDateLocale } from "./lib/date-locale.ts";
import "./styles.css";
import "./kit/kit.css";
import "./components/shell/shell.css";

function Root() {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <AuthProvider>
            <App />
          </AuthProvider>
        </TRPCProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}

// Dates read in the viewer's language from the first paint (a small chunk; none for English).
void loadViewerDateLocale().finally(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
