/**
 * The AI review panel (min 250 px, max 500 px high, scrolls):
 * closable, titled AI Code Review; busy text `AI is analyzing your code...`;
 * markdown rendered by react-markdown with raw HTML dropped and sanitized
 * (rehype-sanitize), links opened safely. Streams text in as it arrives.
 * Re-analyze and `Review completed successfully` only once a review exists
 * and none is loading.
 */
import { useEffect, useRef } from "react";
import Markdown, { type Components } from "react-markdown";
import { ForeignImage } from "./ForeignImage.tsx";
import rehypeSanitize from "rehype-sanitize";
import { revealElement, type SolveT } from "./OutputPanel.tsx";
import { useT } from "../i18n/index.tsx";
import { solve } from "../i18n/catalog/solve/index.ts";

export interface AiPanelState {
  loading: boolean;
  /** The review so far (grows while streaming). */
  review: string;
  /** A message shown instead of a review (empty code, failure). */
  message: string | null;
  /** Which reviewer answered, once the server has said so. */
  source?: { provider: string; model: string; cached: boolean };
}

/** Which reviewer answered, in words ("Gemini · gemini-2.5-flash · cached"); a provider not named here shows its id. */
function sourceLabel(source: NonNullable<AiPanelState["source"]>, t: SolveT): string {
  const name =
    source.provider === "offline"
      ? t("ai.provider.offline")
      : source.provider === "openai"
        ? t("ai.provider.model")
        : source.provider === "gemini"
          ? "Gemini" // i18n-ignore: a product's name
          : source.provider;
  const parts = [name];
  if (source.provider !== "offline" && source.model) parts.push(source.model);
  if (source.cached) parts.push(t("ai.cached"));
  return parts.join(" · ");
}

const components: Components = {
  img: ForeignImage,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
};

interface Props {
  state: AiPanelState;
  /** The assignment's AI policy in words, when it is not a full review. */
  policyText?: string | null;
  onClose: () => void;
  onReanalyze: () => void;
  disabled: boolean;
}

export function AiReviewPanel({ state, policyText, onClose, onReanalyze, disabled }: Props) {
  const t = useT(solve);
  const complete = !state.loading && state.review !== "" && state.message === null;
  const panel = useRef<HTMLElement>(null);
  // The panel opens below the output panel, often below the fold: show it when it opens.
  useEffect(() => {
    if (panel.current) revealElement(panel.current);
  }, []);
  return (
    <section ref={panel} className="card ai-panel" aria-labelledby="ai-panel-title" aria-busy={state.loading}>
      <div className="ai-panel-head">
        <h2 id="ai-panel-title">
          <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" className="ai-icon">
            <path d="M12 2l1.9 5.6L19.5 9.5l-5.6 1.9L12 17l-1.9-5.6L4.5 9.5l5.6-1.9zM19 14l.9 2.6 2.6.9-2.6.9L19 21l-.9-2.6-2.6-.9 2.6-.9zM5 15l.7 1.8 1.8.7-1.8.7L5 20l-.7-1.8-1.8-.7 1.8-.7z" />
          </svg>{" "}
          {t("ai.title")}
        </h2>
        <button type="button" className="icon-button" aria-label={t("ai.close")} onClick={onClose}>
          ✕
        </button>
      </div>
      {policyText && (
        <p className="ai-policy muted" data-testid="ai-policy">
          {policyText}
        </p>
      )}
      <div className="ai-panel-body" tabIndex={0} role="region" aria-label={t("ai.region")} aria-live="polite">
        {state.message !== null && <p className={state.loading ? "muted" : "error-text"}>{state.message}</p>}
        {state.review !== "" && (
          <div className="markdown">
            <Markdown skipHtml rehypePlugins={[rehypeSanitize]} components={components}>
              {state.review}
            </Markdown>
          </div>
        )}
        {state.loading && (
          <p className="pending-line muted">
            <span className="spinner" aria-hidden="true" /> {t("ai.analyzing")}
          </p>
        )}
      </div>
      {complete && (
        <div className="ai-panel-foot">
          <span className="ok-text" role="status">
            ✓ {t("ai.complete")}
          </span>
          {state.source && <span className="muted ai-source">{sourceLabel(state.source, t)}</span>}
          <button type="button" className="btn btn-ghost btn-sm" onClick={onReanalyze} disabled={disabled}>
            {t("ai.reanalyze")}
          </button>
        </div>
      )}
    </section>
  );
}
