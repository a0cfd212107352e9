/**
 * One bar chart of the analytics screen, drawn with recharts, and the same
 * numbers as a table for screen readers: the drawing is hidden from assistive
 * technology (no focusable parts: recharts' keyboard layer is off), the table
 * (visually hidden, captioned like the figure) carries every bar's label and value.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { useId } from "react";

export interface BarDatum {
  /** The bar's label, as on screen (already translated, or a code such as a verdict). */
  label: string;
  /** A longer name for the table (a verdict's full name), when there is one. */
  name?: string;
  value: number;
}

export function BarChartFigure(props: { title: string; categoryHeader: string; valueHeader: string; data: BarDatum[]; empty: string; testId?: string }) {
  const id = useId();
  const captionId = `chart${id}`;
  return (
    <figure className="analytics-chart" aria-labelledby={captionId} data-testid={props.testId}>
      <figcaption id={captionId} className="analytics-chart-title">
        {props.title}
      </figcaption>
      {props.data.length === 0 ? (
        <p className="muted">{props.empty}</p>
      ) : (
        <>
          <div className="analytics-chart-drawing" aria-hidden="true">
            <ResponsiveContainer width="100%" height={180}>
              <BarChart data={props.data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid vertical={false} className="analytics-grid" />
                <XAxis dataKey="label" tickLine={false} interval={0} className="analytics-axis" />
                <YAxis allowDecimals={false} tickLine={false} width={48} className="analytics-axis" />
                <Bar dataKey="value" className="analytics-bar" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <table className="sr-only">
            <caption>{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.categoryHeader}</th>
                <th scope="col">{props.valueHeader}</th>
              </tr>
            </thead>
            <tbody>
              {props.data.map((d) => (
                <tr key={d.label}>
                  <th scope="row">{d.name ? `${d.label} (${d.name})` : d.label}</th>
                  <td>{d.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  );
}
