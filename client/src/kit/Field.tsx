/**
 * The form kit's plain fields: a visible label, an optional description and an
 * error, each tied to the control by `htmlFor` / `aria-describedby` /
 * `aria-invalid` / `aria-errormessage`. They render native controls (no
 * JavaScript library), so the first-paint pages (sign-in, sign-up, problems)
 * carry no widget code; the composite widgets (dialog, tabs, menu, toast, the
 * problem picker) come from React Aria Components (docs/decisions/055-form-kit.md).
 * Every control is styled by kit.css through its `kit-*` classes; pages never
 * style their own inputs. Extra props go to the native control as they are.
 */
import { dateZone, zoneOffsetLabel } from "../lib/dates.ts";
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

interface FieldText {
  /** The visible label (required: every control has one). */
  label: ReactNode;
  /** A hint shown under the label, read with the control. */
  description?: ReactNode;
  /** An error shown under the control, read with it; marks the control invalid. */
  error?: ReactNode;
  /** Extra class on the field's wrapper. */
  className?: string;
  /** Keeps the label for assistive technology only (a table cell whose column header names it). */
  hideLabel?: boolean;
}

/** The ids a field's parts share, and the aria props the control gets. */
function useFieldIds(id: string | undefined, description: ReactNode, error: ReactNode) {
  const own = useId();
  const controlId = id ?? `f${own}`;
  const descId = `${controlId}-desc`;
  const errId = `${controlId}-err`;
  const describedBy = [description ? descId : null, error ? errId : null].filter(Boolean).join(" ") || undefined;
  const aria = { "aria-describedby": describedBy, "aria-invalid": error ? true : undefined, "aria-errormessage": error ? errId : undefined };
  return { controlId, descId, errId, aria };
}

function FieldShell(props: { controlId: string; descId: string; errId: string; label: ReactNode; description?: ReactNode; error?: ReactNode; className?: string; required?: boolean; hideLabel?: boolean; children: ReactNode }) {
  return (
    <div className={`kit-field${props.className ? ` ${props.className}` : ""}`}>
      {props.hideLabel ? (
        <label className="sr-only" htmlFor={props.controlId}>
          {props.label}
        </label>
      ) : (
        <div className="kit-label-line">
          <label className="kit-label" htmlFor={props.controlId}>
            {props.label}
          </label>
          {/* The control's own `required` tells assistive technology; the star, outside the label so the field's name stays its label, shows it. */}
          {props.required && (
            <span className="kit-required" aria-hidden="true">
              *
            </span>
          )}
        </div>
      )}
      {props.description && (
        <p className="kit-description" id={props.descId}>
          {props.description}
        </p>
      )}
      {props.children}
      {props.error && (
        <p className="kit-error" id={props.errId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

export type TextFieldProps = FieldText & Omit<InputHTMLAttributes<HTMLInputElement>, "className"> & { inputClassName?: string };

/** A one-line text input (text, email, password, url, search, file…). */
export function TextField({ label, description, error, className, hideLabel, inputClassName, id, ...input }: TextFieldProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className, required: input.required }}>
      <input {...input} {...aria} id={controlId} className={`kit-input${inputClassName ? ` ${inputClassName}` : ""}`} />
    </FieldShell>
  );
}

export type TextAreaProps = FieldText & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "className"> & { mono?: boolean };

/** A multi-line text input; `mono` for code and test data. */
export function TextArea({ label, description, error, className, hideLabel, mono, id, ...area }: TextAreaProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className, required: area.required }}>
      <textarea {...area} {...aria} id={controlId} className={`kit-input kit-textarea${mono ? " kit-mono" : ""}`} />
    </FieldShell>
  );
}

export type NumberFieldProps = FieldText & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type"> & { unit?: string };

/** A number input (native spin buttons and arrow keys), with its unit shown after it. */
export function NumberField({ label, description, error, className, hideLabel, unit, id, ...input }: NumberFieldProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className: `kit-number${className ? ` ${className}` : ""}`, required: input.required }}>
      <span className="kit-with-unit">
        <input inputMode="numeric" {...input} {...aria} id={controlId} type="number" className="kit-input" />
        {unit && <span className="kit-unit">{unit}</span>}
      </span>
    </FieldShell>
  );
}

export type SelectProps = FieldText & Omit<SelectHTMLAttributes<HTMLSelectElement>, "className">;

/** A native select (its options as children): the platform's own picker, keyboard and screen-reader behaviour. */
export function Select({ label, description, error, className, hideLabel, id, children, ...select }: SelectProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className, required: select.required }}>
      <span className="kit-select-wrap">
        <select {...select} {...aria} id={controlId} className="kit-input kit-select">
          {children}
        </select>
      </span>
    </FieldShell>
  );
}

export type CheckboxProps = Omit<FieldText, "label"> & { label: ReactNode; radio?: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type">;

/** A checkbox (or, with `radio`, one radio of a group the page lays out) with its label beside it (clicking the label toggles it). */
export function Checkbox({ label, description, error, className, hideLabel, radio, id, ...input }: CheckboxProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <div className={`kit-check${className ? ` ${className}` : ""}`}>
      <input {...input} {...aria} id={controlId} type={radio ? "radio" : "checkbox"} className="kit-check-input" />
      <span className="kit-check-text">
        <label className={hideLabel ? "sr-only" : "kit-check-label"} htmlFor={controlId}>
          {label}
        </label>
        {description && (
          <span className="kit-description" id={descId}>
            {description}
          </span>
        )}
        {error && (
          <span className="kit-error" id={errId}>
            {error}
          </span>
        )}
      </span>
    </div>
  );
}

export interface RadioOption<V extends string> {
  value: V;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

export interface RadioGroupProps<V extends string> extends FieldText {
  value: V;
  onChange: (value: V) => void;
  options: readonly RadioOption<V>[];
  /** The radios' shared name (one is made when absent). */
  name?: string;
  /** Radios in a row instead of a column. */
  inline?: boolean;
  disabled?: boolean;
}

/** A fieldset of native radios (arrow keys move between them), its legend the label. */
export function RadioGroup<V extends string>({ label, description, error, className, value, onChange, options, name, inline, disabled }: RadioGroupProps<V>) {
  const own = useId();
  const group = name ?? `r${own}`;
  const descId = `${group}-desc`;
  const errId = `${group}-err`;
  const describedBy = [description ? descId : null, error ? errId : null].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset className={`kit-radio-group${inline ? " inline" : ""}${className ? ` ${className}` : ""}`} aria-describedby={describedBy} disabled={disabled}>
      <legend className="kit-label">{label}</legend>
      {description && (
        <p className="kit-description" id={descId}>
          {description}
        </p>
      )}
      <div className="kit-radio-options">
        {options.map((o) => (
          <Radio key={o.value} name={group} option={o} checked={o.value === value} onSelect={() => onChange(o.value)} />
        ))}
      </div>
      {error && (
        <p className="kit-error" id={errId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Radio<V extends string>({ name, option, checked, onSelect }: { name: string; option: RadioOption<V>; checked: boolean; onSelect: () => void }) {
  const id = `${name}-${option.value}`;
  return (
    <div className="kit-check">
      <input id={id} type="radio" className="kit-check-input" name={name} value={option.value} checked={checked} disabled={option.disabled} onChange={onSelect} aria-describedby={option.description ? `${id}-desc` : undefined} />
      <span className="kit-check-text">
        <label className="kit-check-label" htmlFor={id}>
          {option.label}
        </label>
        {option.description && (
          <span className="kit-description" id={`${id}-desc`}>
            {option.description}
          </span>
        )}
      </span>
    </div>
  );
}

/** The viewer's time zone ("Europe/Amsterdam") and its current offset ("GMT+01:00"), from the one date formatter (lib/dates.ts). */
export function viewerTimeZone(): string {
  return `${dateZone()} (${zoneOffsetLabel()})`;
}

export type DateTimeFieldProps = FieldText & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type">;

/**
 * A local date and time (`YYYY-MM-DDTHH:mm[:ss]`, the native datetime-local
 * value), with the viewer's time zone shown beside it and read with it.
 */
export function DateTimeField({ label, description, error, className, hideLabel, id, ...input }: DateTimeFieldProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  const zoneId = `${controlId}-zone`;
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className, required: input.required }}>
      <span className="kit-with-unit">
        <input {...input} {...aria} aria-describedby={[aria["aria-describedby"], zoneId].filter(Boolean).join(" ")} id={controlId} type="datetime-local" className="kit-input kit-datetime" />
        <span className="kit-unit" id={zoneId}>
          {viewerTimeZone()}
        </span>
      </span>
    </FieldShell>
  );
}

export type ColorFieldProps = FieldText & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type" | "value"> & { value: string };

/** A colour (`#rrggbb`): the native picker as a swatch, with the value written beside it. */
export function ColorField({ label, description, error, className, hideLabel, id, value, ...input }: ColorFieldProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className: `kit-color${className ? ` ${className}` : ""}` }}>
      <span className="kit-with-unit">
        <input {...input} {...aria} id={controlId} type="color" value={value} className="kit-color-input" />
        <span className="kit-unit kit-mono">{value}</span>
      </span>
    </FieldShell>
  );
}

/** Groups fields in a responsive grid (one column below 600 px). */
export function FieldRow({ children, columns = 2 }: { children: ReactNode; columns?: 2 | 3 }) {
  return <div className={`kit-row kit-row-${columns}`}>{children}</div>;
}

export type RangeFieldProps = FieldText & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type"> & {
  /** The value as shown beside the slider (and announced as its value text). */
  valueText: ReactNode;
};

/** A slider (arrow keys step it) with its current value written beside it. */
export function RangeField({ label, description, error, className, hideLabel, id, valueText, ...input }: RangeFieldProps) {
  const { controlId, descId, errId, aria } = useFieldIds(id, description, error);
  return (
    <FieldShell {...{ controlId, descId, errId, label, description, error, hideLabel, className }}>
      <span className="kit-with-unit">
        <input {...input} {...aria} id={controlId} type="range" className="kit-range" aria-valuetext={typeof valueText === "string" ? valueText : undefined} />
        <output htmlFor={controlId} className="kit-unit">
          {valueText}
        </output>
      </span>
    </FieldShell>
  );
}
