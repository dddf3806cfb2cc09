import { useId, useMemo, useState } from 'react';
import { NvcfError, RollbackGpuSpecificationDocument, UpdateGpuSpecificationDocument } from '@nvcf/client';
import { CodeEditor, ConfirmDialog } from './controls.js';
import { lineOfError, parseEditor, toEditorText, type EditorKind, type LineError } from './editor-model.js';
import type { Spec } from './rollout-model.js';
import { errorText, short, useSession } from './ui.js';

interface ServerError {
  code: string;
  message: string;
  line: number | null;
}

/**
 * A new configuration revision (Helm values, or an operator's merge patches) in a YAML/JSON
 * editor, and a rollback; both confirmed first. Parse errors are shown at their line before
 * anything is sent; the server's are shown next to the editor, at the line of the field they name.
 */
export function UpdatePanel({ spec, onChanged }: { spec: Spec; onChanged: () => Promise<void> }) {
  const { client } = useSession();
  const latest = spec.latestRevision;
  const applied = spec.lastAppliedRevision;
  const kind: EditorKind = latest?.manifestMergePatches != null ? 'operator' : 'helm';
  const source = kind === 'operator' ? latest?.manifestMergePatches : (latest?.configuration ?? spec.configuration);
  const [text, setText] = useState(() => toEditorText(source));
  const [basedOn, setBasedOn] = useState(latest?.id ?? null);
  const parsed = useMemo(() => parseEditor(text, kind), [text, kind]);
  const [serverError, setServerError] = useState<ServerError | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<null | 'update' | 'rollback'>(null);
  const [busy, setBusy] = useState(false);
  const editorId = useId();

  const clientErrors: LineError[] = parsed.ok ? [] : parsed.errors;
  const marks = new Set<number>(
    [...clientErrors.map((e) => e.line), serverError?.line ?? null].filter((l): l is number => l !== null),
  );
  const canRollback = !!applied && !!latest && latest.id !== applied.id;
  const instances = spec.instances.length;

  const edit = (v: string) => {
    setText(v);
    setServerError(null);
    setOutcome(null);
  };
  const reset = () => {
    edit(toEditorText(source));
    setBasedOn(latest?.id ?? null);
  };

  const run = async (what: 'update' | 'rollback') => {
    setConfirm(null);
    setBusy(true);
    setServerError(null);
    setOutcome(null);
    try {
      if (what === 'update') {
        if (!parsed.ok) return;
        const revision =
          kind === 'helm' ? { configuration: parsed.value } : { manifestMergePatches: parsed.value as unknown[] };
        // a read-modify-write: stored only if the revision the text was edited from is still the latest (else CONFLICT)
        const r = await client.mutate(UpdateGpuSpecificationDocument, {
          id: spec.id,
          input: { revision, ...(basedOn ? { expectedRevisionId: basedOn } : {}) },
        });
        const rev = r.updateGpuSpecification.latestRevision;
        setOutcome(`Revision ${short(rev?.id)} submitted (${rev?.status ?? 'unknown'}): the rollout view follows it.`);
        setBasedOn(rev?.id ?? null);
      } else {
        const r = await client.mutate(RollbackGpuSpecificationDocument, { id: spec.id });
        const rev = r.rollbackGpuSpecification.latestRevision;
        setOutcome(
          `Rolling back: revision ${short(rev?.id)} (${rev?.status ?? 'unknown'}) has the configuration of ${short(applied?.id)}.`,
        );
        if (rev) {
          setText(toEditorText(kind === 'operator' ? rev.manifestMergePatches : rev.configuration));
          setBasedOn(rev.id);
        }
      }
      await onChanged();
    } catch (e) {
      const err = e instanceof NvcfError ? e : null;
      setServerError({
        code: err?.code ?? 'ERROR',
        message: err?.message ?? errorText(e),
        line: what === 'update' && err ? lineOfError(parsed, err.errors[0]?.extensions) : null,
      });
    } finally {
      setBusy(false);
    }
  };

  const label = kind === 'helm' ? 'Helm values (YAML or JSON)' : 'Manifest merge patches (YAML or JSON list)';
  return (
    <section className="panel update" aria-labelledby="update-h">
      <h2 id="update-h">Update the configuration</h2>
      <p className="muted">
        Send the whole{' '}
        {kind === 'helm' ? 'configuration: it replaces the previous one (nothing is merged)' : 'list of patches'}.{' '}
        Edited from revision <code>{short(basedOn)}</code>
        {latest && basedOn !== latest.id ? (
          <>
            {' '}
            — the latest is now <code>{short(latest.id)}</code> (
            <button type="button" className="link" onClick={reset}>
              load it
            </button>
            )
          </>
        ) : null}
        .
      </p>
      <label htmlFor={editorId} className="field-label">
        {label}
      </label>
      <CodeEditor id={editorId} value={text} onChange={edit} marks={marks} describedBy="editor-errors" />
      <div id="editor-errors" aria-live="polite">
        {clientErrors.length || serverError ? (
          <ul className="editor-errors">
            {clientErrors.map((e, i) => (
              <li key={i} data-line={e.line ?? ''}>
                {e.line ? <strong>Line {e.line}: </strong> : null}
                {e.message}
              </li>
            ))}
            {serverError ? (
              <li className="server-error" data-line={serverError.line ?? ''} data-code={serverError.code}>
                {serverError.line ? <strong>Line {serverError.line}: </strong> : null}
                <code>{serverError.code}</code> {serverError.message}
              </li>
            ) : null}
          </ul>
        ) : null}
      </div>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={!parsed.ok}
          aria-busy={busy}
          onClick={() => {
            if (!busy) setConfirm('update');
          }}
        >
          Submit update…
        </button>
        <button type="button" onClick={reset}>
          Reset editor
        </button>
        <button
          type="button"
          disabled={!canRollback}
          onClick={() => {
            if (!busy) setConfirm('rollback');
          }}
          title={
            canRollback
              ? undefined
              : 'nothing to roll back to: the latest revision is the last applied one, or none was applied'
          }
        >
          Roll back…
        </button>
      </div>
      <p role="status" aria-live="polite" className="outcome">
        {outcome}
      </p>
      <ConfirmDialog
        open={confirm === 'update'}
        title="Submit this configuration?"
        confirmLabel="Submit update"
        onConfirm={() => void run('update')}
        onCancel={() => setConfirm(null)}
      >
        <p>
          A new revision of this GPU specification rolls out to its {instances} instance{instances === 1 ? '' : 's'}, in
          place.{latest?.status === 'ROLLING_OUT' ? ' The rollout under way is superseded.' : ''}
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'rollback'}
        title="Roll back?"
        confirmLabel="Roll back"
        onConfirm={() => void run('rollback')}
        onCancel={() => setConfirm(null)}
      >
        <p>
          A new revision with the configuration of the last applied revision <code>{short(applied?.id)}</code> rolls out
          to {instances} instance{instances === 1 ? '' : 's'}, replacing <code>{short(latest?.id)}</code> (
          {latest?.status}).
        </p>
      </ConfirmDialog>
    </section>
  );
}
