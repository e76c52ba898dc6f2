import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api-client';
import './form-controls.css';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The accessibility attributes of an input with an optional hint and error below it. */
export const fieldAria = (id: string, error: string | undefined, hint = false) => {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
};

interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled control with its hint and error, tied together for screen readers by fieldAria. */
export const Field = ({ id, label, error, hint, children }: FieldProps) => (
  <div className="field">
    <label htmlFor={id}>{label}</label>
    {children}
    <FieldNotes id={id} hint={hint} error={error} />
  </div>
);

/** A field's hint and error, with the ids fieldAria points at; a picked file's error is announced. */
const FieldNotes = ({
  id,
  hint,
  error,
  announce = false,
}: {
  id: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  announce?: boolean;
}) => (
  <>
    {hint ? (
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    ) : null}
    {error ? (
      <p id={`${id}-error`} className="field-error" role={announce ? 'alert' : undefined}>
        {error}
      </p>
    ) : null}
  </>
);

/** A local URL showing the chosen file, released when the file changes. */
export const usePreviewUrl = (file: File | null): string | null => {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
};

/** Why a chosen file cannot be uploaded, or null when it can. */
export const imageProblem = (file: File): string | null => {
  if (!file.type.startsWith('image/')) return 'Please choose an image file';
  if (file.size > MAX_IMAGE_BYTES) return 'The image must be at most 10MB';
  return null;
};

interface ImagePickerProps {
  id: string;
  label: string;
  file: File | null;
  /** The image already saved, shown while no new file is chosen. */
  savedUrl?: string | null | undefined;
  onSelect: (file: File) => void;
  onRemove: () => void;
  previewAlt: string;
  round?: boolean;
  hint?: string;
  placeholder?: ReactNode;
}

/** A file input for one image: preview, then 'Change Photo' and 'Remove'. */
export const ImagePicker = ({
  id,
  label,
  file,
  savedUrl,
  onSelect,
  onRemove,
  previewAlt,
  round = false,
  hint,
  placeholder,
}: ImagePickerProps) => {
  const input = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const [error, setError] = useState<string | null>(null);
  const previewUrl = usePreviewUrl(file);
  const shown = previewUrl ?? savedUrl ?? null;
  const describedBy =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="photo-picker">
        {shown ? (
          <img className={`photo-preview ${round ? 'round' : ''}`} src={shown} alt={previewAlt} />
        ) : (
          <div className={`photo-preview photo-empty ${round ? 'round' : ''}`} aria-hidden="true">
            {placeholder ?? '+'}
          </div>
        )}
        <input
          ref={input}
          id={id}
          className="sr-only"
          type="file"
          accept="image/*"
          tabIndex={-1}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            event.target.value = '';
            // Nothing chosen (the chooser was cancelled or cleared): no choice left to complain of.
            if (!chosen) return setError(null);
            const problem = imageProblem(chosen);
            setError(problem);
            if (!problem) onSelect(chosen);
          }}
        />
        <div className="row photo-actions">
          <button
            ref={chooseButton}
            type="button"
            className="btn btn-ghost btn-sm"
            aria-describedby={describedBy}
            onClick={() => input.current?.click()}
          >
            {shown ? 'Change Photo' : 'Upload Photo'}
          </button>
          {shown ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-remove"
              onClick={() => {
                setError(null);
                onRemove();
                chooseButton.current?.focus();
              }}
            >
              Remove
            </button>
          ) : null}
        </div>
      </div>
      <FieldNotes id={id} hint={hint} error={error} announce />
    </div>
  );
};

/** The server's message when the call reached it and it explained a refusal of the given kinds. */
export const refusalMessage = (error: unknown, statuses: readonly number[]): string | null =>
  error instanceof ApiError && statuses.includes(error.status) && error.serverMessage
    ? error.serverMessage
    : null;

const pad = (n: number) => String(n).padStart(2, '0');

/** A local date `days` from today, as a date input reads it. */
export const localDateAfter = (days: number, from = new Date()): string => {
  const date = new Date(from);
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};
