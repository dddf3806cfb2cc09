import { useEffect, useId, useRef, type ReactNode } from 'react';

/** A textarea with line numbers; lines with an error are marked in the gutter (and listed under it). */
export function CodeEditor({
  id,
  value,
  onChange,
  marks,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  marks: Set<number>;
  describedBy: string;
}) {
  const gutter = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const count = value.split('\n').length;
  const sync = () => {
    if (gutter.current && area.current) gutter.current.scrollTop = area.current.scrollTop;
  };
  useEffect(sync);
  return (
    <div className="editor">
      <div className="gutter" ref={gutter} aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <div
            key={i}
            className={marks.has(i + 1) ? 'mark' : undefined}
            data-error-line={marks.has(i + 1) ? i + 1 : undefined}
          >
            {i + 1}
          </div>
        ))}
        <div className="gutter-pad" />
      </div>
      <textarea
        id={id}
        ref={area}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onScroll={sync}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        wrap="off"
        rows={Math.min(Math.max(count + 1, 8), 22)}
        aria-invalid={marks.size > 0}
        aria-describedby={describedBy}
      />
    </div>
  );
}

/** A modal <dialog>: focus moves into it, Escape cancels, and focus returns to what opened it. */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  dismissLabel = 'Cancel',
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  /** the button that closes it doing nothing; name it when "Cancel" would read as the action */
  dismissLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement as HTMLElement | null;
      d.showModal();
    } else if (!open && d.open) {
      d.close();
      opener.current?.focus();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="actions">
        <button type="button" onClick={onCancel}>
          {dismissLabel}
        </button>
        <button type="button" className="primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
