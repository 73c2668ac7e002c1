import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  type ButtonProps,
  FieldError,
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
