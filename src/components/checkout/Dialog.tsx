/**
 * A modal dialog (the native `<dialog>` opened with showModal: the rest of the page is inert). Focus moves into
 * it, Tab and Shift+Tab stay inside, Escape closes it, and focus returns where it was when it closes.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])';

/** A modal dialog: `title` names it, `children` describe it; `onClose` hears Escape. */
export function Modal(props: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
  onClose(): void;
  part: string;
  role?: 'dialog' | 'alertdialog';
}): ReactNode {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const close = useRef(props.onClose);
  close.current = props.onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // The element that had focus, inside the shadow root if that is where it was.
    let before = document.activeElement;
    while (before?.shadowRoot?.activeElement) before = before.shadowRoot.activeElement;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // Escape fires `cancel` (the browser would close the dialog by itself; the owner decides instead).
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close.current();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    if (items.length === 0) return;
    const root = ref.current?.getRootNode() as Document | ShadowRoot;
    const active = root.activeElement;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && (active === first || !items.includes(active as HTMLElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !items.includes(active as HTMLElement))) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      role={props.role ?? 'dialog'}
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      part={props.part}
      onKeyDown={onKeyDown}
    >
      <h2 id={`${id}-title`} className="dialog-title">
        {props.title}
      </h2>
      <div id={`${id}-text`} className="dialog-text">
        {props.children}
      </div>
      <div className="actions">{props.actions}</div>
    </dialog>
  );
}
