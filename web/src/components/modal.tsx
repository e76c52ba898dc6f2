import { type ReactNode, useEffect, useId, useRef } from 'react';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** What Tab may reach inside a dialog. */
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const tabbableIn = (panel: HTMLElement): HTMLElement[] =>
  Array.from(panel.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (element) => !element.closest('[hidden], [inert]') && element.getClientRects().length > 0,
  );

/**
 * A dialog: labelled by its title, closed by Escape or the backdrop, focus moved inside and kept
 * there (Tab from the last control goes to the first, Shift+Tab from the first to the last), and
 * given back to what had it when the dialog closes.
 */
export const Modal = ({ title, onClose, children }: ModalProps) => {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(
      'input, button:not(.modal-close), select, textarea',
    );
    (first ?? panel.current)?.focus();
    // Only the dialog on top answers keys and holds focus: one opened over another takes over.
    const onTop = () => {
      const open = document.querySelectorAll('[aria-modal="true"]');
      return open[open.length - 1] === panel.current;
    };
    const onKey = (event: KeyboardEvent) => {
      if (!onTop()) return;
      if (event.key === 'Escape') {
        close.current();
        return;
      }
      const box = panel.current;
      if (event.key !== 'Tab' || !box) return;
      const tabbable = tabbableIn(box);
      const firstOne = tabbable[0];
      const lastOne = tabbable[tabbable.length - 1];
      if (!firstOne || !lastOne) {
        event.preventDefault();
        box.focus();
        return;
      }
      const at = document.activeElement;
      const inside = at instanceof Node && box.contains(at);
      if (event.shiftKey && (!inside || at === firstOne || at === box)) {
        event.preventDefault();
        lastOne.focus();
      } else if (!event.shiftKey && (!inside || at === lastOne)) {
        event.preventDefault();
        firstOne.focus();
      }
    };
    // Focus that lands outside by other means (a click on the page behind) comes back in.
    const onFocusIn = (event: FocusEvent) => {
      const box = panel.current;
      if (box && onTop() && event.target instanceof Node && !box.contains(event.target))
        box.focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      previous?.focus();
    };
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={panel}
        tabIndex={-1}
      >
        <div className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="modal-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
};

interface ConfirmProps {
  title: string;
  question: string;
  onAnswer: (yes: boolean) => void;
  busy?: boolean;
}

/** A yes/no question before something that cannot be undone. */
export const Confirm = ({ title, question, onAnswer, busy = false }: ConfirmProps) => (
  <Modal title={title} onClose={() => onAnswer(false)}>
    <p className="confirm-question">{question}</p>
    <div className="modal-actions">
      <button type="button" className="btn btn-ghost" onClick={() => onAnswer(false)}>
        No
      </button>
      <button
        type="button"
        className="btn btn-danger"
        disabled={busy}
        onClick={() => onAnswer(true)}
      >
        Yes
      </button>
    </div>
  </Modal>
);
