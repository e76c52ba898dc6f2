import { type ReactNode, useEffect, useId, useRef } from 'react';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** A dialog: labelled by its title, closed by Escape or the backdrop, focus moved inside. */
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
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
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
