import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import {
  ClustersDocument,
  CreateTaskDocument,
  NvcfError,
  OperatorTypesDocument,
  type CreateTaskInput,
} from '@nvcf/client';
import { CodeEditor } from './controls.js';
import { lineOfError, parseEditor, type Parsed } from './editor-model.js';
import { href, navigate } from './router.js';
import { WORKLOADS, workloadInput, type Workload } from './task-form.js';
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
 * A task: its name; a container (image, arguments), a Helm chart (and the service it exposes) or
 * operator manifests (a YAML list, and the operator types that drive them); a GPU and instance
 * type the clusters offer; the three durations; optional configuration (a chart's values; on
 * simulated clusters, `nvcfSimulate`).
 */
export function NewTaskPage() {
  useTitle('New task');
  const { client } = useSession();
  const clusters = useLoad('clusters', (c) => c.query(ClustersDocument));
  const choices = useMemo(() => gpuChoices(clusters.data?.clusters ?? []), [clusters.data]);
  const [name, setName] = useState('');
  const [workload, setWorkload] = useState<Workload>('container');
  const [image, setImage] = useState('');
  const [chart, setChart] = useState('');
  const [serviceName, setServiceName] = useState('');
  const [operatorTypes, setOperatorTypes] = useState<string[]>([]);
  const [manifests, setManifests] = useState('');
  const [args, setArgs] = useState('');
  const [gpu, setGpu] = useState('');
  const [instanceType, setInstanceType] = useState('');
  const [durations, setDurations] = useState<Durations>({});
  const [configuration, setConfiguration] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const registry = useLoad(workload === 'operator' ? 'operator-types' : 'no-operator-types', (c) =>
    workload === 'operator' ? c.query(OperatorTypesDocument) : Promise.resolve(null),
  );

  const gpuShown = gpu || [...choices.keys()][0] || '';
  const types = choices.get(gpuShown) ?? [];
  const typeShown = types.includes(instanceType) ? instanceType : (types[0] ?? '');
  const parsed = useMemo(() => (configuration.trim() ? parseEditor(configuration, 'helm') : null), [configuration]);
  const parsedManifests = useMemo(() => parseEditor(manifests, 'manifests'), [manifests]);
  const serverError = error instanceof NvcfError ? error : null;
  const ext = serverError?.errors[0]?.extensions;
  const badField = typeof ext?.field === 'string' ? ext.field : null;
  // a refused manifest is named by its index, a configuration value by its field's path
  const configLine = parsed && badField?.startsWith('configuration') ? lineOfError(parsed, ext) : null;
  const manifestLine =
    workload === 'operator' && typeof ext?.index === 'number' ? lineOfError(parsedManifests, ext) : null;
  const workloadGiven = workloadInput(workload, {
    image,
    args,
    chart,
    serviceName,
    operatorTypes,
    manifests: parsedManifests,
  });
  const ready =
    name.trim() !== '' && workloadGiven !== null && gpuShown !== '' && typeShown !== '' && parsed?.ok !== false;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || !workloadGiven || busy) return;
    setBusy(true);
    setError(null);
    const given = Object.fromEntries(
      Object.entries(durations)
        .filter((kv): kv is [string, string] => typeof kv[1] === 'string' && kv[1].trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    ) as Durations;
    try {
      const { createTask } = await client.mutate(CreateTaskDocument, {
        input: {
          name: name.trim(),
          ...workloadGiven,
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
        A workload that runs to completion on one GPU instance: a container, a Helm chart, or operator manifests.
      </p>
      <ErrorNote error={clusters.error} what="load the clusters' GPUs" />
      <form className="panel task-form" onSubmit={(e) => void submit(e)} noValidate aria-describedby="create-error">
        <TextField id="task-name" label="Name" value={name} onChange={setName} required invalid={invalid('name')} />
        <fieldset className="workload">
          <legend className="field-label">Workload</legend>
          {WORKLOADS.map((w) => (
            <label key={w.value} className="choice">
              <input
                type="radio"
                name="workload"
                value={w.value}
                checked={workload === w.value}
                onChange={() => {
                  setWorkload(w.value);
                  setError(null);
                }}
              />{' '}
              {w.label}
            </label>
          ))}
        </fieldset>
        {workload === 'container' ? (
          <>
            <TextField
              id="task-image"
              label="Image"
              value={image}
              onChange={setImage}
              placeholder="nvcr.io/nca-a/eval:1"
              required
              invalid={invalid('container.image')}
            />
            <label htmlFor="task-args" className="field-label">
              Arguments <span className="muted">(one per line, optional)</span>
            </label>
            <textarea
              id="task-args"
              rows={2}
              value={args}
              onChange={(e) => setArgs(e.target.value)}
              spellCheck={false}
            />
          </>
        ) : workload === 'helm' ? (
          <>
            <TextField
              id="task-chart"
              label="Chart"
              value={chart}
              onChange={setChart}
              placeholder="oci://nvcr.io/nca-a/eval-1.0.0.tgz"
              required
              invalid={invalid('helm.chart')}
              help={
                <>
                  an <code>oci://…/NAME-X.Y.Z.tgz</code> URI; its values are the configuration below
                </>
              }
            />
            <TextField
              id="task-service-name"
              label="Service name"
              value={serviceName}
              onChange={setServiceName}
              placeholder="eval"
              required
              invalid={invalid('helm.serviceName')}
              help="the name of the Service the chart creates for the workload (a DNS-1123 label)"
            />
          </>
        ) : (
          <>
            <fieldset>
              <legend className="field-label">Operator types</legend>
              <ErrorNote error={registry.error} what="load the operator types" />
              {(registry.data?.operatorTypes ?? []).map((t) => (
                <label key={t.name} className="choice">
                  <input
                    type="checkbox"
                    checked={operatorTypes.includes(t.name)}
                    onChange={(e) =>
                      setOperatorTypes((ts) =>
                        e.target.checked ? [...ts, t.name].sort() : ts.filter((n) => n !== t.name),
                      )
                    }
                  />{' '}
                  {t.name} <span className="muted">({t.kinds.join(', ')})</span>
                </label>
              ))}
            </fieldset>
            <YamlField
              label={
                <>
                  Manifests <span className="muted">(a YAML or JSON list of Kubernetes objects)</span>
                </>
              }
              text={manifests}
              onChange={(v) => {
                setManifests(v);
                setError(null);
              }}
              parsed={manifests.trim() ? parsedManifests : null}
              serverLine={manifestLine}
              errorsId="manifest-errors"
            />
          </>
        )}
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
              <TextField
                id={`task-${d.field}`}
                label={d.label}
                value={durations[d.field] ?? ''}
                onChange={(v) => setDurations((ds) => ({ ...ds, [d.field]: v }))}
                invalid={invalid(d.field)}
                help={d.help}
              />
            </div>
          ))}
        </fieldset>
        <YamlField
          label={
            <>
              Configuration{' '}
              <span className="muted">
                (YAML or JSON, optional{workload === 'helm' ? ": the chart's values" : ''}; nvcfSimulate on simulated
                clusters)
              </span>
            </>
          }
          text={configuration}
          onChange={(v) => {
            setConfiguration(v);
            setError(null);
          }}
          parsed={parsed}
          serverLine={configLine}
          errorsId="config-errors"
        />
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

/** A YAML/JSON editor with its parse errors listed under it and marked in the gutter, with the server's line. */
function YamlField({
  label,
  text,
  onChange,
  parsed,
  serverLine,
  errorsId,
}: {
  label: ReactNode;
  text: string;
  onChange: (v: string) => void;
  /** null: nothing to check (an optional field left empty) */
  parsed: Parsed | null;
  serverLine: number | null;
  errorsId: string;
}) {
  const id = useId();
  const errors = parsed && !parsed.ok ? parsed.errors : [];
  const marks = new Set<number>([...errors.map((e) => e.line), serverLine].filter((l): l is number => l !== null));
  return (
    <>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <CodeEditor id={id} value={text} onChange={onChange} marks={marks} describedBy={errorsId} />
      <div id={errorsId} aria-live="polite">
        {errors.length ? (
          <ul className="editor-errors">
            {errors.map((e, i) => (
              <li key={i} data-line={e.line ?? ''}>
                {e.line ? <strong>Line {e.line}: </strong> : null}
                {e.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
  );
}

/** A labelled one-line input, with its help below it; `invalid` marks the field the API refused. */
function TextField(props: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  required?: boolean;
  invalid?: boolean;
  help?: ReactNode;
}) {
  const { id, label, value, onChange, placeholder, required, invalid, help } = props;
  return (
    <>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        spellCheck={false}
        required={required}
        aria-describedby={help ? `${id}-help` : undefined}
        aria-invalid={invalid}
      />
      {help ? (
        <p id={`${id}-help`} className="muted help">
          {help}
        </p>
      ) : null}
    </>
  );
}
