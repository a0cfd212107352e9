/**
 * tRPC client wired to React Query. Queries and mutations go through one
 * batched HTTP link with `Authorization: Bearer <token>` (from localStorage)
 * and credentials included; subscriptions (judging progress, streamed AI
 * review) go over SSE, where the httpOnly session cookie authenticates
 * because EventSource cannot send headers.
 *
 * The router type is imported type-only from the server, so nothing of the
 * server is bundled.
 */
import { activeLocale } from "../i18n/locale.ts";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../src/trpc/router.ts";
import { getToken, setToken } from "./storage.ts";

/**
 * The server renews a session past half its life and sends the new token in
 * `X-Session-Token` (the cookie is renewed alongside); keep it, so the bearer
 * token does not expire while the user keeps working.
 */
export function keepRenewedToken(res: Response): void {
  const renewed = res.headers.get("X-Session-Token");
  if (renewed && getToken()) setToken(renewed);
}

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** @returns a fresh tRPC client (one per app). */
export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url: "/trpc", eventSourceOptions: { withCredentials: true } }),
        false: httpBatchLink({
          url: "/trpc",
          // The server refuses batches of more than MAX_TRPC_BATCH_SIZE (src/app.ts) calls.
          maxItems: 32,
          headers() {
            const token = getToken();
            // The server answers error messages in the interface's language (src/i18n/messages.ts).
            const language = { "Accept-Language": activeLocale() }; // i18n-ignore: a header name
            return token ? { ...language, Authorization: `Bearer ${token}` } : language;
          },
          async fetch(url, options) {
            const res = await fetch(url, { ...(options as RequestInit), credentials: "include" });
            keepRenewedToken(res);
            return res;
          },
        }),
      }),
    ],
  });
}

/** @returns the app's QueryClient: no retries on 4xx (a 401/403/404 will not heal by retrying). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          const status = httpStatusOf(error);
          if (status !== null && status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
}

/** @returns the HTTP status a tRPC (or fetch) error carried, or null when none is known. */
export function httpStatusOf(error: unknown): number | null {
  if (error instanceof TRPCClientError) {
    const data: unknown = error.data;
    if (data && typeof data === "object" && "httpStatus" in data && typeof data.httpStatus === "number") {
      return data.httpStatus;
    }
    const meta: unknown = error.meta;
    if (meta && typeof meta === "object" && "response" in meta) {
      const response = meta.response;
      if (response instanceof Response) return response.status;
    }
  }
  return null;
}

/** @returns the catalogue details (`error.data.app.details`) the server attached, if any. */
export function appDetailsOf(error: unknown): Record<string, unknown> | null {
  if (error instanceof TRPCClientError) {
    const data: unknown = error.data;
    if (data && typeof data === "object" && "app" in data) {
      const app = data.app;
      if (app && typeof app === "object" && "details" in app && app.details && typeof app.details === "object") {
        return app.details as Record<string, unknown>;
      }
    }
  }
  return null;
}

/** @returns the server's message for a failed call, or null when it sent none (e.g. network failure). */
export function serverMessageOf(error: unknown): string | null {
  if (error instanceof TRPCClientError && httpStatusOf(error) !== null) {
    return error.message || null;
  }
  return null;
}
