import { parseEditor } from '../web/console/editor-model.js';
import { workloadInput, type WorkloadFields } from '../web/console/task-form.js';

const blank: WorkloadFields = {
  image: '',
  args: '',
  chart: '',
  serviceName: '',
  operatorTypes: [],
  manifests: parseEditor('', 'manifests'),
};

describe("workloadInput: the create form's workload, as createTask takes it", () => {
  it('sends only the chosen workload, trimmed, whatever the other fields hold', () => {
    const all: WorkloadFields = {
      image: ' nvcr.io/nca-a/eval:1 ',
      args: '--epochs=3\n\n  --lr=0.1 \n',
      chart: ' oci://nvcr.io/nca-a/eval-1.0.0.tgz ',
      serviceName: ' eval ',
      operatorTypes: ['nim'],
      manifests: parseEditor('- { apiVersion: v1, kind: ConfigMap, metadata: { name: x } }\n', 'manifests'),
    };
    expect(workloadInput('container', all)).toEqual({
      container: { image: 'nvcr.io/nca-a/eval:1', args: ['--epochs=3', '--lr=0.1'] },
    });
    expect(workloadInput('helm', all)).toEqual({
      helm: { chart: 'oci://nvcr.io/nca-a/eval-1.0.0.tgz', serviceName: 'eval' },
    });
    expect(workloadInput('operator', all)).toEqual({
      operator: {
        operatorTypes: ['nim'],
        manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }],
      },
    });
  });

  it('leaves out arguments when there are none', () => {
    expect(workloadInput('container', { ...blank, image: 'img:1', args: ' \n ' })).toEqual({
      container: { image: 'img:1' },
    });
  });

  it('is null until the chosen workload has what the API requires', () => {
    expect(workloadInput('container', { ...blank, chart: 'oci://x/y-1.0.0.tgz', serviceName: 'y' })).toBeNull();
    expect(workloadInput('helm', { ...blank, chart: 'oci://x/y-1.0.0.tgz', serviceName: '  ' })).toBeNull();
    expect(workloadInput('helm', { ...blank, serviceName: 'y' })).toBeNull();
    expect(
      workloadInput('operator', { ...blank, operatorTypes: ['nim'], manifests: parseEditor('- [', 'manifests') }),
    ).toBeNull();
  });
});
