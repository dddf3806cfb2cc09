import { useState } from 'react';
import {
  CreateFunctionDocument,
  DeployFunctionVersionDocument,
  FunctionDocument,
  FunctionsDocument,
  GpuSpecificationDocument,
  type FunctionQuery,
} from '@nvcf/client';
import { href, navigate } from './router.js';
import { Badge, Breadcrumbs, ErrorNote, Id, Link, errorText, useLoad, useSession, useTitle, when } from './ui.js';

export function FunctionsPage() {
  useTitle('Functions');
  const { config } = useSession();
  const fns = useLoad('functions', (c) => c.query(FunctionsDocument));
  const list = fns.data?.functions ?? [];
  return (
    <>
      <h1>Functions</h1>
      <ErrorNote error={fns.error} what="load the functions" />
      {fns.loading && !fns.data ? <p aria-live="polite">Loading functions…</p> : null}
      {fns.data && list.length === 0 ? <p>No functions yet for this tenant.</p> : null}
      {list.length > 0 ? (
        <table className="grid">
          <caption className="visually-hidden">Functions of this tenant</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Function</th>
              <th scope="col">Versions</th>
              <th scope="col">Latest version</th>
            </tr>
          </thead>
          <tbody>
            {list.map((f) => {
              const latest = [...f.versions].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
              return (
                <tr key={f.id}>
                  <th scope="row">
                    <Link to={href.fn(f.id)}>{f.name}</Link>
                  </th>
                  <td>
                    <Id id={f.id} />
                  </td>
                  <td>{f.versions.length}</td>
                  <td>
                    {latest ? (
                      <>
                        <Badge value={latest.status} />{' '}
                        <span className="muted">
                          {latest.workloadType.toLowerCase()}, {when(latest.createdAt)}
                        </span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {config.authMode === 'dev' && fns.data ? <ExampleFunction /> : null}
    </>
  );
}

/** Development only: one click to a deployed Helm function to watch a rollout on. */
function ExampleFunction() {
  const { client } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const name = `example-${Date.now().toString(36)}`;
      const { createFunction } = await client.mutate(CreateFunctionDocument, {
        input: {
          name,
          inferenceUrl: '/v1/infer',
          inferencePort: 8000,
          helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' },
        },
      });
      const { deployFunctionVersion } = await client.mutate(DeployFunctionVersionDocument, {
        versionId: createFunction.id,
        input: {
          gpuSpecifications: [
            {
              gpu: 'L40S',
              instanceType: 'gl40s_1.br25_2xlarge',
              minInstances: 3,
              maxInstances: 4,
              configuration: { model: 'v1', replicas: 1 },
            },
          ],
        },
      });
      navigate(href.spec(deployFunctionVersion.gpuSpecifications[0].id));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="example-h">
      <h2 id="example-h">Try it</h2>
      <p>
        Development gateway: deploy an example Helm function (3 instances of L40S on the simulated clusters) and open
        its rollout view.
      </p>
      <button type="button" onClick={() => void create()} disabled={busy}>
        {busy ? 'Deploying…' : 'Deploy an example function'}
      </button>
      {error ? (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
    </section>
  );
}

type Version = NonNullable<FunctionQuery['function']>['versions'][number];

export function FunctionPage({ id }: { id: string }) {
  const fn = useLoad(`function:${id}`, (c) => c.query(FunctionDocument, { id }));
  const f = fn.data?.function;
  useTitle(f?.name ?? 'Function');
  return (
    <>
      <Breadcrumbs items={[{ label: f?.name ?? id }]} />
      <h1>{f ? f.name : 'Function'}</h1>
      <ErrorNote error={fn.error} what="load the function" />
      {fn.loading && !fn.data ? <p aria-live="polite">Loading…</p> : null}
      {fn.data && !f ? (
        <p role="alert">
          No function <code>{id}</code> for this tenant.
        </p>
      ) : null}
      {f ? (
        <p className="muted">
          Function <code>{f.id}</code> · tenant {f.ncaId}
        </p>
      ) : null}
      {f
        ? [...f.versions]
            .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
            .map((v) => <VersionSection key={v.id} v={v} />)
        : null}
    </>
  );
}

function VersionSection({ v }: { v: Version }) {
  const specs = v.deployment?.gpuSpecifications ?? [];
  return (
    <section className="panel" aria-labelledby={`v-${v.id}`}>
      <h2 id={`v-${v.id}`}>
        Version <code>{v.id.slice(0, 8)}</code> <Badge value={v.status} />
      </h2>
      <dl className="facts">
        <div>
          <dt>Workload</dt>
          <dd>{v.workloadType}</dd>
        </div>
        {v.helmChart ? (
          <div>
            <dt>Chart</dt>
            <dd>
              <code>{v.helmChart}</code>
            </dd>
          </div>
        ) : null}
        {v.containerImage ? (
          <div>
            <dt>Image</dt>
            <dd>
              <code>{v.containerImage}</code>
            </dd>
          </div>
        ) : null}
        {v.operatorTypes?.length ? (
          <div>
            <dt>Operators</dt>
            <dd>{v.operatorTypes.join(', ')}</dd>
          </div>
        ) : null}
        <div>
          <dt>Created</dt>
          <dd>{when(v.createdAt)}</dd>
        </div>
      </dl>
      {specs.length === 0 ? (
        <p className="muted">Not deployed.</p>
      ) : (
        <table className="grid">
          <caption>GPU specifications</caption>
          <thead>
            <tr>
              <th scope="col">GPU</th>
              <th scope="col">Instance type</th>
              <th scope="col">Instances</th>
              <th scope="col">Latest revision</th>
              <th scope="col">Last applied revision</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {specs.map((s) => (
              <SpecRow key={s.id} spec={s} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function SpecRow({
  spec,
}: {
  spec: { id: string; gpu: string; instanceType: string; minInstances: number; maxInstances: number };
}) {
  const full = useLoad(`spec-row:${spec.id}`, (c) => c.query(GpuSpecificationDocument, { id: spec.id }));
  const s = full.data?.gpuSpecification;
  const latest = s?.latestRevision;
  const applied = s?.lastAppliedRevision;
  return (
    <tr>
      <th scope="row">{spec.gpu}</th>
      <td>
        <code>{spec.instanceType}</code>
      </td>
      <td>
        {spec.minInstances}–{spec.maxInstances}
        {s ? <span className="muted"> ({s.instances.length} running)</span> : null}
      </td>
      <td>
        {full.error ? (
          <span className="error">{errorText(full.error)}</span>
        ) : latest ? (
          <>
            <Id id={latest.id} /> <Badge value={latest.status} />{' '}
            <span className="muted">
              {latest.progress.applied}/{latest.progress.total}
            </span>
          </>
        ) : s ? (
          '—'
        ) : (
          '…'
        )}
      </td>
      <td>
        {applied ? (
          <>
            <Id id={applied.id} /> <span className="muted">{when(applied.appliedAt)}</span>
          </>
        ) : s ? (
          '—'
        ) : (
          '…'
        )}
      </td>
      <td>
        <Link to={href.spec(spec.id)}>
          Rollout view
          <span className="visually-hidden">
            {' '}
            of {spec.gpu} {spec.instanceType}
          </span>
        </Link>
      </td>
    </tr>
  );
}
