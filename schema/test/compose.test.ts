import { composeSupergraph, readSupergraph, readPublicSchema } from '../src/index.js';

describe('supergraph', () => {
  it('composes without errors and the committed files are current (npm run schema:compose)', () => {
    const { supergraph, publicSchema } = composeSupergraph();
    expect(readSupergraph()).toBe(supergraph);
    expect(readPublicSchema()).toBe(publicSchema);
  });

  it('exposes every operation of the public contract', () => {
    const pub = readPublicSchema();
    for (const op of [
      'function(id: ID!)',
      'functions:',
      'functionVersion(id: ID!)',
      'gpuSpecification(id: ID!)',
      'instance(id: ID!)',
      'clusters:',
      'operatorTypes:',
      'createFunction(',
      'createFunctionVersion(',
      'deployFunctionVersion(',
      'updateGpuSpecification(',
      'rollbackGpuSpecification(',
      'undeployFunctionVersion(',
      'instanceStatusChanged(',
    ]) {
      expect(pub).toContain(op);
    }
  });
});
