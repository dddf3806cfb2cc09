import {
  failures,
  field,
  isRecord,
  show,
  type Obj,
  injectIdentity,
  notReady,
  LABEL,
  SIM_ANNOTATION,
  type Failure,
  type OperatorObservation,
  type OperatorRegistry,
  type ReadyRule,
} from '@nvcf/operators';
import type { OperatorWorkload } from '@nvcf/contracts';
import type { DesiredInstance } from '../driver.js';

export interface SimObject {
  object: Obj;
  readyAt: number | null;
}

function setPath(o: Obj, path: string, value: unknown) {
  const segs = path.split('.');
  let cur = o;
  for (const s of segs.slice(0, -1)) {
    const next = cur[s];
    cur = isRecord(next) ? next : (cur[s] = {});
  }
  cur[segs.at(-1)!] = value;
}
const nameOf = (o: Obj) => field(o.metadata, 'name');
const labelsOf = (o: Obj) => field(o.metadata, 'labels');
const annotationOf = (o: Obj, key: string) => field(field(o.metadata, 'annotations'), key);
const readyValue = (r: ReadyRule) => (r.atLeast !== undefined ? r.atLeast : r.values[0]);

/**
 * A simulated Kubernetes namespace with the operators we do not own: applied objects
 * become ready after a delay; each operator then creates its secondary objects (labelled
 * like their owner), which become ready later still.
 */
export class SimulatedOperators {
  private readonly objects: SimObject[] = [];
  /** what the operators created (not applied by us) */
  private readonly created = new WeakSet<Obj>();
  constructor(
    private readonly registry: OperatorRegistry,
    private readonly delays: { primaryMs: number; secondaryMs: number },
  ) {}

  /** Objects carrying the instance's NVCF label: how the agent finds what operators created. */
  byInstance(instanceId: string): SimObject[] {
    return this.objects.filter((o) => field(labelsOf(o.object), LABEL.instanceId) === instanceId);
  }

  remove(instanceId: string) {
    for (const o of this.byInstance(instanceId)) this.objects.splice(this.objects.indexOf(o), 1);
  }

  /** Applies (server-side-apply style: replace by kind/name) and schedules the operators' work. */
  apply(d: DesiredInstance, w: OperatorWorkload): void {
    const labelled = injectIdentity(
      w.manifests,
      {
        ncaId: d.ncaId,
        functionId: d.functionId,
        versionId: d.versionId,
        instanceId: d.instanceId,
        revisionId: d.revisionId,
      },
      this.registry,
    );
    const mine = this.byInstance(d.instanceId);
    for (const m of labelled) {
      const existing = mine.find((o) => o.object.kind === m.kind && nameOf(o.object) === nameOf(m));
      // the same object again (a retry of the same revision) changes nothing, as with Server-Side Apply
      if (
        existing &&
        JSON.stringify({ ...existing.object, status: undefined }) === JSON.stringify({ ...m, status: undefined })
      )
        continue;
      const entry = { object: m, readyAt: null };
      if (existing) this.objects[this.objects.indexOf(existing)] = entry;
      else this.objects.push(entry);
      setTimeout(() => this.becomeReady(entry, d, w), this.delays.primaryMs).unref();
    }
  }

  private becomeReady(entry: SimObject, d: DesiredInstance, w: OperatorWorkload) {
    if (!this.objects.includes(entry)) return; // replaced meanwhile
    const failure = annotationOf(entry.object, SIM_ANNOTATION.status);
    if (typeof failure === 'string' && failure && !entry.object.simFailed) {
      // told to fail (tests): that status for good, or for status-for-ms before it gets ready
      Object.defineProperty(entry.object, 'simFailed', { value: true, enumerable: false });
      const status: unknown = JSON.parse(failure);
      entry.object.status = {
        ...(isRecord(entry.object.status) ? entry.object.status : {}),
        ...(isRecord(status) ? status : {}),
      };
      const forMs = Number(annotationOf(entry.object, SIM_ANNOTATION.statusForMs) ?? NaN);
      if (Number.isFinite(forMs))
        setTimeout(() => {
          entry.object.status = {};
          this.becomeReady(entry, d, w);
        }, forMs).unref();
      return;
    }
    const type = this.registry.types.find(
      (t) => w.operatorTypes.includes(t.name) && t.kinds.some((k) => k.kind === entry.object.kind),
    );
    const spec = type && [...type.kinds, ...type.extraTypes].find((k) => k.kind === entry.object.kind);
    if (spec) setPath(entry.object, spec.ready.path, readyValue(spec.ready));
    entry.readyAt = Date.now();
    for (const sec of type?.secondary ?? []) {
      const name = `${show(nameOf(entry.object))}-${sec.kind.toLowerCase()}`;
      if (this.byInstance(d.instanceId).some((o) => o.object.kind === sec.kind && nameOf(o.object) === name)) continue;
      const labels = labelsOf(entry.object);
      const child: SimObject = {
        object: {
          apiVersion: sec.apiVersion,
          kind: sec.kind,
          metadata: { name, labels: { ...(isRecord(labels) ? labels : {}) } },
          status: {},
        },
        readyAt: null,
      };
      this.objects.push(child);
      this.created.add(child.object);
      setTimeout(() => {
        setPath(child.object, sec.ready.path, readyValue(sec.ready));
        child.readyAt = Date.now();
      }, this.delays.secondaryMs).unref();
    }
  }

  /** Failed objects of the instance, by the registry's failure rules. */
  failed(instanceId: string): Failure[] {
    return failures(
      this.byInstance(instanceId).map((o) => o.object),
      this.registry,
    );
  }

  /** What the instance's objects say, for its MiniService's status (operatorStatus). */
  observation(instanceId: string): OperatorObservation {
    const all = this.byInstance(instanceId).map((o) => o.object);
    const secondaries = all.filter((o) => this.created.has(o));
    return {
      pending: notReady(all, this.registry).map((n) => `${n} (not ready)`),
      failures: this.failed(instanceId),
      secondaries: {
        ready: secondaries.length - notReady(secondaries, this.registry).length,
        total: secondaries.length,
      },
    };
  }
}
