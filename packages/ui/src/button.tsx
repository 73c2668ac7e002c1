import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  type ButtonProps as AriaButtonProps,
  Link as AriaLink,
  type LinkProps as AriaLinkProps,
  composeRenderProps,
} from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger';

export interface ButtonProps extends AriaButtonProps {
  /** `primary`: the one main action; `secondary`: an alternative; `quiet`: a low-key action; `danger`: destructive. */
  variant?: ButtonVariant;
  /** Full width of its container (the main action on a phone). */
  wide?: boolean;
  /** What the spinner says while `isPending` (announced politely). */
  pendingLabel?: string;
}

/**
 * A button. While `isPending` it keeps its size and label (hidden under a spinner), stays
 * focusable and ignores presses, so a double click cannot submit twice and nothing moves.
 */
export function Button({
  variant = 'primary',
  wide,
  pendingLabel = 'Working…',
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <AriaButton
      {...props}
      className={composeRenderProps(className, (given) => ['ui-button', given].filter(Boolean).join(' '))}
      data-variant={variant}
      data-wide={wide || undefined}
    >
      {composeRenderProps(children, (content, { isPending }) => (
        <>
          <span className="ui-button-label">{content}</span>
          {isPending ? (
            <span className="ui-button-spinner" role="progressbar" aria-label={pendingLabel}>
              <span className="ui-spinner" aria-hidden="true" />
            </span>
          ) : null}
        </>
      ))}
    </AriaButton>
  );
}

/** A link that looks like a button (a navigation, not an action: "Continue shopping"). */
export function LinkButton({
  variant = 'secondary',
  wide,
  className,
  ...props
}: AriaLinkProps & { variant?: ButtonVariant; wide?: boolean; children?: ReactNode }) {
  return (
    <AriaLink
      {...props}
      className={composeRenderProps(className, (given) => ['ui-button', given].filter(Boolean).join(' '))}
      data-variant={variant}
      data-wide={wide || undefined}
    />
  );
}

/** A small spinning indicator with an accessible name. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="ui-spinner" role="progressbar" aria-label={label} />;
}
