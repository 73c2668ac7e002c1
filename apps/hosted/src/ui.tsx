import {
  Skeleton,
  SkeletonText,
  TextField,
  type TextFieldProps,
  Button as UiButton,
  type ButtonProps as UiButtonProps,
  Form as UiForm,
  type FormProps as UiFormProps,
  Loading as UiLoading,
  Notice as UiNotice,
} from '@commerce/ui';
import type { ReactNode } from 'react';
import { t } from './i18n/index.ts';
import { formatWait } from './lib/format.ts';
import type { ApiFailure } from './lib/trpc.ts';

/**
 * The app's building blocks: @commerce/ui's components (React Aria underneath) under the names and
 * props the pages have always used. New code may import from @commerce/ui directly.
 */
export {
  Card,
  CheckboxField,
  Cluster,
  Container,
  Dialog,
  DialogTrigger,
  LinkButton,
  Panel,
  RadioGroupField,
  SelectField,
  Skeleton,
  SkeletonText,
  Stack,
  Table,
  ToastRegion,
  toast,
} from '@commerce/ui';

/**
 * `primary` (the page's main action), `secondary`, `quiet` or `danger`. It keeps the class names
 * `button button-<variant>` it always had (tests and pages select by them); the look is the
 * package's.
 */
export function Button({ variant = 'primary', className, ...props }: UiButtonProps) {
  return (
    <UiButton
      {...props}
      variant={variant}
      className={['button', `button-${variant}`, typeof className === 'string' ? className : '']
        .filter(Boolean)
        .join(' ')}
    />
  );
}

/**
 * A form whose fields are checked by the router's zod schemas (in `onSubmit`), with their messages
 * shown through `validationErrors`: the browser's own constraint checks never block a submit. A
 * message goes as soon as its field is edited, but its space stays until the next submit, so the
 * button below never moves under the pointer.
 */
export function Form(props: UiFormProps) {
  return <UiForm {...props} />;
}

/** A labelled text input with an optional hint; its message comes from the form's `validationErrors`. */
export function Field(
  props: Omit<TextFieldProps, 'label'> & { label: string; description?: string; type?: string },
) {
  return <TextField {...props} />;
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

export { UiNotice as Notice };

/** A refused call as a sentence; a rate limit says how long to wait. */
export function FailureNotice({ failure, fallback }: { failure: ApiFailure | undefined; fallback?: string }) {
  if (!failure) return null;
  if (failure.code === 'RATE_LIMIT_EXCEEDED')
    return (
      <UiNotice tone="error">
        {t('failure.tooMany')}{' '}
        {failure.retryAfterSeconds === undefined
          ? t('failure.waitAndRetry')
          : t('failure.retryIn', formatWait(failure.retryAfterSeconds))}
      </UiNotice>
    );
  return <UiNotice tone="error">{fallback ?? failure.message}</UiNotice>;
}

/**
 * What a page shows while its data loads: "Loading <what>…" for assistive technology, and a
 * skeleton of a page (a heading and a few blocks) so the layout does not jump when it arrives.
 */
export function Loading({ what }: { what: string }) {
  return (
    <div className="page page-loading">
      <UiLoading label={t('loading.label', what)}>
        <Skeleton width="14rem" height="2rem" />
        <Skeleton height="2.75rem" radius="md" />
        <Skeleton height="2.75rem" radius="md" />
        <SkeletonText lines={3} />
      </UiLoading>
    </div>
  );
}
