import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { EyeIcon, EyeOffIcon } from '../icons';
import './fields.css';

interface FieldShellProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  children: ReactNode;
}

function FieldShell({ id, label, error, hint, optional, children }: FieldShellProps) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {optional ? <span className="field__optional"> (opcional)</span> : null}
      </label>
      {children}
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  prefix?: string;
  onValueChange: (value: string) => void;
};

/** A labelled input whose error and hint are tied to it for screen readers. */
export function TextField({ label, error, hint, optional, prefix, onValueChange, id: givenId, ...input }: TextFieldProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const control = (
    <input
      {...input}
      id={id}
      className="field__input"
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, error, hint)}
      onChange={(e) => onValueChange(e.target.value)}
    />
  );
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} optional={optional}>
      {prefix ? (
        <div className="field__group">
          <span className="field__prefix" aria-hidden="true">
            {prefix}
          </span>
          {control}
        </div>
      ) : (
        control
      )}
    </FieldShell>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange'> & {
  label: string;
  error?: string;
  optional?: boolean;
  onValueChange: (value: string) => void;
};

export function TextAreaField({ label, error, optional, onValueChange, id: givenId, ...textarea }: TextAreaFieldProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <FieldShell id={id} label={label} error={error} optional={optional}>
      <textarea
        {...textarea}
        id={id}
        className="field__input field__textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => onValueChange(e.target.value)}
      />
    </FieldShell>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  placeholder: string;
  options: readonly { value: string; label: string }[];
  onValueChange: (value: string) => void;
};

export function SelectField({ label, error, hint, placeholder, options, onValueChange, id: givenId, value, ...select }: SelectFieldProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <select
        {...select}
        id={id}
        value={value}
        className={`field__input field__select${value === '' ? ' field__select--empty' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onValueChange(e.target.value)}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'prefix'> & {
  /** What the show/hide button names, e.g. "contraseña" gives "Mostrar contraseña". */
  toggleName?: string;
  children?: ReactNode;
};

/** A password input with a show/hide toggle button; `children` render under it (e.g. a strength meter). */
export function PasswordField({ label, error, hint, onValueChange, id: givenId, toggleName = 'contraseña', children, ...input }: PasswordFieldProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <div className="field__group field__group--password">
        <input
          {...input}
          id={id}
          type={visible ? 'text' : 'password'}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          onChange={(e) => onValueChange(e.target.value)}
        />
        <button
          type="button"
          className="field__toggle"
          aria-label={`${visible ? 'Ocultar' : 'Mostrar'} ${toggleName}`}
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
        </button>
      </div>
      {children}
    </FieldShell>
  );
}
