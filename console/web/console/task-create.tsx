import { useId, useMemo, useState, type FormEvent } from 'react';
import { ClustersDocument, CreateTaskDocument, NvcfError, type CreateTaskInput } from '@nvcf/client';
import { CodeEditor } from './controls.js';
import { lineOfError, parseEditor } from './editor-model.js';
import { href, navigate } from './router.js';
import { tasksCrumb } from './tasks.js';
import { Breadcrumbs, ErrorNote, errorText, useLoad, useSession, useTitle } from './ui.js';

type Durations = Pick<CreateTaskInput, 'maxRuntimeDuration' | 'maxQueuedDuration' | 'terminationGracePeriodDuration'>;

const DURATIONS: { field: keyof Durations; label: string; help: string }[] = [
  { field: 'maxRuntimeDuration', label: 'Max runtime', help: 'from when it runs; default P1D, at most P7D' },
  {
    field: 'maxQueuedDuration',
    label: 'Max queued',
    help: 'from its creation until it runs; default P3D, at most P7D',
  },
  {
    field: 'terminationGracePeriodDuration',
    label: 'Termination grace period',
    help: 'for a stopped workload to exit; default PT30S, at most PT1H',
  },
];

/** GPU name → its instance types, over every cluster the tenant can see. */
function gpuChoices(clusters: { gpus: { name: string; instanceTypes: string[] }[] }[]): Map<string, string[]> {
  const m = new Map<string, Set<string>>();
  for (const c of clusters)
    for (const g of c.gpus)
      for (const t of g.instanceTypes) (m.get(g.name) ?? m.set(g.name, new Set()).get(g.name)!).add(t);
  return new Map([...m].sort(([a], [b]) => a.localeCompare(b)).map(([g, ts]) => [g, [...ts].sort()]));
}

/**
 * A container task: name, image and arguments, a GPU and instance type the clusters offer, the
 * three durations, and optional configuration (on simulated clusters, `nvcfSimulate`). Operator
 * and Helm tasks are for the CLI (`nvcf tasks create -f`), which reads manifests from files.
 */
export function NewTaskPage() {
  useTitle('New task');
  const { client } = useSession();
  const clusters = useLoad('clusters', (c) => c.query(ClustersDocument));
  const choices = useMemo(() => gpuChoices(clusters.data?.clusters ?? []), [clusters.data]);
  const [name, setName] = useState('');
  const [image, setImage] = useState('');
  const [args, setArgs] = useState('');
  const [gpu, setGpu] = useState('');
  const [instanceType, setInstanceType] = useState('');
  const [durations, setDurations] = useState<Durations>({});
  const [configuration, setConfiguration] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const configId = useId();

  const gpuShown = gpu || [...choices.keys()][0] || '';
  const types = choices.get(gpuShown) ?? [];
  const typeShown = types.includes(instanceType) ? instanceType : (types[0] ?? '');
  const parsed = useMemo(() => (configuration.trim() ? parseEditor(configuration, 'helm') : null), [configuration]);
  const serverError = error instanceof NvcfError ? error : null;
  const badField =
    typeof serverError?.errors[0]?.extensions?.field === 'string' ? serverError.errors[0].extensions.field : null;
  const configLine = parsed && serverError ? lineOfError(parsed, serverError.errors[0]?.extensions) : null;
  const marks = new Set<number>(
    [...(parsed && !parsed.ok ? parsed.errors.map((e) => e.line) : []), configLine].filter(
      (l): l is number => l !== null,
    ),
  );
  const ready =
    name.trim() !== '' && image.trim() !== '' && gpuShown !== '' && typeShown !== '' && parsed?.ok !== false;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    const given = Object.fromEntries(
      Object.entries(durations)
        .filter((kv): kv is [string, string] => typeof kv[1] === 'string' && kv[1].trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    ) as Durations;
    const argList = args
      .split('\n')
      .map((a) => a.trim())
      .filter(Boolean);
    try {
      const { createTask } = await client.mutate(CreateTaskDocument, {
        input: {
          name: name.trim(),
          container: { image: image.trim(), ...(argList.length ? { args: argList } : {}) },
          gpuSpecification: { gpu: gpuShown, instanceType: typeShown },
          ...(parsed?.ok ? { configuration: parsed.value } : {}),
          ...given,
        },
      });
      navigate(href.task(createTask.id));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const invalid = (field: string) => (badField === field ? true : undefined);
  return (
    <>
      <Breadcrumbs root={tasksCrumb} items={[{ label: 'New task' }]} />
      <h1>New task</h1>
      <p className="muted">
        A container that runs to completion on one GPU instance. Operator and Helm tasks: <code>nvcf tasks create</code>
        .
      </p>
      <ErrorNote error={clusters.error} what="load the clusters' GPUs" />
      <form className="panel task-form" onSubmit={(e) => void submit(e)} noValidate aria-describedby="create-error">
        <label htmlFor="task-name" className="field-label">
          Name
        </label>
        <input
          id="task-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          aria-invalid={invalid('name')}
        />
        <label htmlFor="task-image" className="field-label">
          Container image
        </label>
        <input
          id="task-image"
          value={image}
          onChange={(e) => setImage(e.target.value)}
          placeholder="nvcr.io/nca-a/eval:1"
          spellCheck={false}
          required
          aria-invalid={invalid('container.image')}
        />
        <label htmlFor="task-args" className="field-label">
          Arguments <span className="muted">(one per line, optional)</span>
        </label>
        <textarea id="task-args" rows={2} value={args} onChange={(e) => setArgs(e.target.value)} spellCheck={false} />
        <div className="field-row">
          <div>
            <label htmlFor="task-gpu" className="field-label">
              GPU
            </label>
            <select id="task-gpu" value={gpuShown} onChange={(e) => setGpu(e.target.value)}>
              {[...choices.keys()].map((g) => (
                <option key={g}>{g}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="task-instance-type" className="field-label">
              Instance type
            </label>
            <select id="task-instance-type" value={typeShown} onChange={(e) => setInstanceType(e.target.value)}>
              {types.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="field-row">
          <legend className="field-label">
            Durations <span className="muted">(ISO 8601: PT30M, PT1H30M, P2D; blank for the default)</span>
          </legend>
          {DURATIONS.map((d) => (
            <div key={d.field}>
              <label htmlFor={`task-${d.field}`} className="field-label">
                {d.label}
              </label>
              <input
                id={`task-${d.field}`}
                value={durations[d.field] ?? ''}
                onChange={(e) => setDurations((ds) => ({ ...ds, [d.field]: e.target.value }))}
                spellCheck={false}
                aria-describedby={`task-${d.field}-help`}
                aria-invalid={invalid(d.field)}
              />
              <p id={`task-${d.field}-help`} className="muted help">
                {d.help}
              </p>
            </div>
          ))}
        </fieldset>
        <label htmlFor={configId} className="field-label">
          Configuration <span className="muted">(YAML or JSON, optional; nvcfSimulate on simulated clusters)</span>
        </label>
        <CodeEditor
          id={configId}
          value={configuration}
          onChange={(v) => {
            setConfiguration(v);
            setError(null);
          }}
          marks={marks}
          describedBy="config-errors"
        />
        <div id="config-errors" aria-live="polite">
          {parsed && !parsed.ok ? (
            <ul className="editor-errors">
              {parsed.errors.map((e, i) => (
                <li key={i} data-line={e.line ?? ''}>
                  {e.line ? <strong>Line {e.line}: </strong> : null}
                  {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={!ready} aria-busy={busy}>
            {busy ? 'Creating…' : 'Create task'}
          </button>
        </div>
        <div id="create-error">
          {error ? (
            <p className="error server-error" role="alert" data-code={serverError?.code ?? ''}>
              <strong>Could not create the task.</strong> {errorText(error)}
            </p>
          ) : null}
        </div>
      </form>
    </>
  );
}
