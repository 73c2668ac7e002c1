import type { ElementType, HTMLAttributes, ReactNode } from 'react';

/** A step of the spacing scale (`--ui-space-<n>`). */
export type Space = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '8' | '10' | '12' | '16';

type Box = HTMLAttributes<HTMLElement> & { as?: ElementType; children?: ReactNode };

function classes(...names: (string | false | undefined)[]) {
  return names.filter(Boolean).join(' ');
}

/** Children one above the other, `gap` apart. */
export function Stack({ as: As = 'div', gap = '4', className, ...props }: Box & { gap?: Space }) {
  return <As {...props} className={classes('ui-stack', className)} data-gap={gap} />;
}

/** Children side by side, wrapping on narrow screens (buttons, tags, a label and its value). */
export function Cluster({
  as: As = 'div',
  gap = '3',
  justify = 'start',
  align = 'center',
  className,
  ...props
}: Box & {
  gap?: Space;
  justify?: 'start' | 'end' | 'between' | 'center';
  align?: 'start' | 'center' | 'baseline';
}) {
  return (
    <As
      {...props}
      className={classes('ui-cluster', className)}
      data-gap={gap}
      data-justify={justify}
      data-align={align}
    />
  );
}

/** A centred column of a readable width with the page's side padding. */
export function Container({
  as: As = 'div',
  width = 'content',
  className,
  ...props
}: Box & { width?: 'narrow' | 'content' | 'wide' }) {
  return <As {...props} className={classes('ui-container', className)} data-width={width} />;
}

/**
 * A bordered surface grouping related content; with `title` it is a labelled region (a panel)
 * whose heading is `headingLevel` (2 by default). `tone="subtle"` is a tinted panel without border.
 */
export function Card({
  as: As = 'section',
  title,
  headingLevel = 2,
  actions,
  tone = 'default',
  className,
  children,
  ...props
}: Box & {
  title?: ReactNode;
  headingLevel?: 2 | 3 | 4;
  actions?: ReactNode;
  tone?: 'default' | 'subtle';
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <As {...props} className={classes('ui-card', className)} data-tone={tone}>
      {title || actions ? (
        <div className="ui-card-header">
          {title ? <Heading className="ui-card-title">{title}</Heading> : <span />}
          {actions}
        </div>
      ) : null}
      {children}
    </As>
  );
}

/** A card by its other name: a titled panel of a page (summary, recap, settings group). */
export const Panel = Card;

/** Content for screen readers only. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className="ui-visually-hidden">{children}</span>;
}
