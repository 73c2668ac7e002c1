import type { ReactNode } from 'react';
import {
  Dialog as AriaDialog,
  DialogTrigger,
  Heading,
  Modal,
  ModalOverlay,
  type ModalOverlayProps,
} from 'react-aria-components';

export { DialogTrigger };

/**
 * A modal dialog with a title: focus moves in and is trapped, Escape closes it (and a click
 * outside when `isDismissable`), focus returns to what opened it. Put it second in a
 * `DialogTrigger` after the button that opens it, or control it with `isOpen`/`onOpenChange`.
 * `children` may be a function of `close`.
 */
export function Dialog({
  title,
  children,
  role = 'dialog',
  ...props
}: Omit<ModalOverlayProps, 'children'> & {
  title: ReactNode;
  /** `alertdialog` for a confirmation that interrupts (a destructive action). */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode | ((close: () => void) => ReactNode);
}) {
  return (
    <ModalOverlay {...props} className="ui-modal-overlay">
      <Modal className="ui-modal">
        <AriaDialog className="ui-dialog" role={role}>
          {({ close }) => (
            <>
              <Heading slot="title" className="ui-dialog-title">
                {title}
              </Heading>
              <div className="ui-dialog-body">
                {typeof children === 'function' ? children(close) : children}
              </div>
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
