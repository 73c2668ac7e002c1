import { type ReactNode, useEffect, useState } from 'react';
import {
  Button as AriaButton,
  Form as AriaForm,
  type ButtonProps,
  FieldError,
  type FormProps,
  Input,
  Label,
  Text,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import { formatWait } from './lib/format.ts';
import type { ApiFailure } from './lib/trpc.ts';

/** The app's few building blocks, on React Aria Components (labels, focus and errors wired by it). */
export function Button({
  variant = 'primary',
  ...props
}: ButtonProps & { variant?: 'primary' | 'secondary' | 'danger' }) {
  return <AriaButton {...props} className={`button button-${variant}`} />;
}

/**
 * A form whose fields are checked by the router's zod schemas (in `onSubmit`), with their messages
 * shown through `validationErrors`: the browser's own constraint checks never block a submit.
 */
export function Form({ validationErrors, children, ...props }: FormProps) {
  // A field's message goes as soon as its value is edited, not on blur: a message vanishing between
  // pressing and releasing the submit button would move the button away from the pointer.
  const [shown, setShown] = useState<Record<string, string | string[]> | undefined>(validationErrors);
  useEffect(() => setShown(validationErrors), [validationErrors]);
  return (
    <AriaForm validationBehavior="aria" {...props} validationErrors={shown ?? {}}>
      <div
        onInput={(event) => {
          const name = (event.target as HTMLInputElement).name;
          if (name && shown?.[name] !== undefined)
            setShown((current) =>
              Object.fromEntries(Object.entries(current ?? {}).filter(([key]) => key !== name)),
            );
        }}
      >
        {children}
      </div>
    </AriaForm>
  );
}

export function Field(
  props: Omit<TextFieldProps, 'children'> & { label: string; description?: string; type?: string },
) {
  const { label, description, ...rest } = props;
  return (
    <TextField {...rest} className="field">
      <Label>{label}</Label>
      <Input />
      {description ? <Text slot="description">{description}</Text> : null}
      <FieldError className="field-error" />
    </TextField>
  );
}

/** A page's main heading and content. */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {children}
    </section>
  );
}

export function Notice({
  tone = 'info',
  children,
}: {
  tone?: 'info' | 'error' | 'success';
  children: ReactNode;
}) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** A refused call as a sentence; a rate limit says how long to wait. */
export function FailureNotice({ failure, fallback }: { failure: ApiFailure | undefined; fallback?: string }) {
  if (!failure) return null;
  if (failure.code === 'RATE_LIMIT_EXCEEDED')
    return (
      <Notice tone="error">
        Too many attempts.{' '}
        {failure.retryAfterSeconds === undefined
          ? 'Please wait a little and try again.'
          : `Try again ${formatWait(failure.retryAfterSeconds)}.`}
      </Notice>
    );
  return <Notice tone="error">{fallback ?? failure.message}</Notice>;
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}
