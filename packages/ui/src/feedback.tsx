import type { ReactNode } from 'react';

/**
 * A message in the page's flow. `error` is an alert (announced at once); the other tones are a
 * polite status.
 */
export function Notice({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'error' | 'success' | 'warning';
  title?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="ui-notice" data-tone={tone} role={tone === 'error' ? 'alert' : 'status'}>
      {title ? <p className="ui-notice-title">{title}</p> : null}
      {children ? <div className="ui-notice-body">{children}</div> : null}
    </div>
  );
}

/** A grey placeholder block of the size of what is loading; hidden from assistive technology. */
export function Skeleton({
  width = '100%',
  height = '1rem',
  radius = 'sm',
}: {
  width?: string;
  height?: string;
  radius?: 'sm' | 'md' | 'lg' | 'pill';
}) {
  return <span className="ui-skeleton" data-radius={radius} aria-hidden="true" style={{ width, height }} />;
}

/** Placeholder lines of text, the last one shorter. */
export function SkeletonText({ lines = 3 }: { lines?: number }) {
  return (
    <span className="ui-skeleton-text" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} width={index === lines - 1 && lines > 1 ? '60%' : '100%'} />
      ))}
    </span>
  );
}

/**
 * A loading region: `label` is announced ("Loading checkout…") and the skeleton children stand in
 * for the content's shape, so nothing jumps when it arrives.
 */
export function Loading({ label, children }: { label: string; children?: ReactNode }) {
  return (
    <div className="ui-loading" role="status" aria-busy="true">
      <span className="ui-visually-hidden">{label}</span>
      {children ?? <SkeletonText lines={3} />}
    </div>
  );
}
