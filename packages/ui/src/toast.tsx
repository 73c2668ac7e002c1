import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  UNSTABLE_Toast as AriaToast,
  UNSTABLE_ToastContent as AriaToastContent,
  UNSTABLE_ToastQueue as AriaToastQueue,
  UNSTABLE_ToastRegion as AriaToastRegion,
  Text,
} from 'react-aria-components';

export interface ToastContent {
  title: string;
  description?: string;
  tone?: 'info' | 'success' | 'error';
}

/** The app's toasts (one queue per app; `ToastRegion` shows them). */
export const toastQueue = new AriaToastQueue<ToastContent>({ maxVisibleToasts: 3 });

/**
 * Shows a short, non-blocking message ("Address saved"). It closes after `timeout` ms (5 s by
 * default; a toast with an action or an error should stay: pass `timeout: 0`).
 */
export function toast(content: ToastContent, options: { timeout?: number } = {}): string {
  const timeout = options.timeout ?? 5000;
  return toastQueue.add(content, timeout > 0 ? { timeout } : {});
}

/** Where toasts appear (bottom of the screen, a landmark reached with F6); render once per app. */
export function ToastRegion({ queue = toastQueue }: { queue?: AriaToastQueue<ToastContent> }) {
  return (
    <AriaToastRegion queue={queue} className="ui-toast-region">
      {({ toast: item }) => (
        <AriaToast toast={item} className="ui-toast" data-tone={item.content.tone ?? 'info'}>
          <AriaToastContent className="ui-toast-content">
            <Text slot="title" className="ui-toast-title">
              {item.content.title}
            </Text>
            {item.content.description ? (
              <Text slot="description" className="ui-toast-description">
                {item.content.description}
              </Text>
            ) : null}
          </AriaToastContent>
          <AriaButton slot="close" className="ui-toast-close" aria-label="Dismiss">
            <CloseIcon />
          </AriaButton>
        </AriaToast>
      )}
    </AriaToastRegion>
  );
}

function CloseIcon(): ReactNode {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
    </svg>
  );
}
