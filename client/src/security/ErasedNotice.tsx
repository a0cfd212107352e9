/**
 * What the landing page says after an account was erased (./DeleteAccountSection.tsx navigates there with the
 * server's message in the history entry's state): a status line that takes focus, so a screen reader reads it
 * and keyboard users start from it. Reloading the page keeps it (the state is the entry's); a new visit has none.
 */
import { useEffect, useRef } from "react";

/** The key of the history state that carries the message. */
export const ERASED_STATE_KEY = "accountErased";

function erasedMessage(): string | null {
  const state: unknown = window.history.state;
  if (!state || typeof state !== "object" || !(ERASED_STATE_KEY in state)) return null;
  const message = (state as Record<string, unknown>)[ERASED_STATE_KEY];
  return typeof message === "string" && message ? message : null;
}

export function ErasedNotice() {
  const message = erasedMessage();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div className="container erased-notice">
      <p className="alert alert-success" role="status" tabIndex={-1} ref={ref} data-testid="account-erased">
        {message}
      </p>
    </div>
  );
}
