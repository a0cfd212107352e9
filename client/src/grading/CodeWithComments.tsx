/**
 * A submission's code with line numbers and its line comments shown under
 * their lines (a table: each line's number is its row header). Staff get a
 * button per line to comment on it.
 */
import type { ReactNode } from "react";
import { useT } from "../i18n/index.tsx";
import { grading } from "../i18n/catalog/grading/index.ts";
import type { LineComment } from "./review-types.ts";
import "./grading.css";

export function CodeWithComments(props: { code: string; comments: LineComment[]; onComment?: (line: number) => void; renderComment?: (c: LineComment, index: number) => ReactNode }) {
  const t = useT(grading);
  const lines = props.code.replace(/\n$/, "").split("\n");
  return (
    <div className="review-code-wrap">
      <table className="review-code" aria-label={t("code.table")}>
        <tbody>
          {lines.map((text, i) => {
            const line = i + 1;
            const here = props.comments.map((c, index) => ({ c, index })).filter(({ c }) => c.line === line);
            return [
              <tr key={`l${line}`} className={here.length ? "review-line has-comment" : "review-line"}>
                <th scope="row" className="review-line-no">
                  {line}
                </th>
                <td className="review-line-code" dir="ltr" translate="no">
                  <code>{text || " "}</code>
                </td>
                {props.onComment && (
                  <td className="review-line-action">
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => props.onComment!(line)} aria-label={t("code.commentOnLine", { line })}>
                      <span aria-hidden="true">+</span>
                    </button>
                  </td>
                )}
              </tr>,
              ...here.map(({ c, index }) => (
                <tr key={`c${line}-${index}`} className="review-comment-row">
                  <td />
                  <td colSpan={props.onComment ? 2 : 1}>
                    <div className="review-comment" role="note" aria-label={t("code.commentLabel", { line })}>
                      {props.renderComment ? props.renderComment(c, index) : <p dir="auto">{c.text}</p>}
                    </div>
                  </td>
                </tr>
              )),
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}
