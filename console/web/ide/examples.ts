import type { PageConfig } from '../page-config.js';

/** The Authorization header the IDE opens with: a development token where the gateway offers one. */
export function initialHeaders(config: PageConfig): Record<string, string> {
  const token = config.devTokens[0];
  return { Authorization: token ? `Bearer ${token.token}` : 'Bearer <your JWT>' };
}

/** The same, as the header editor's text. */
export const headersText = (config: PageConfig) => JSON.stringify(initialHeaders(config), null, 2);

const functions = `# Your tenant's functions (the token in Headers picks the tenant).
# Run with the ▶ button or Ctrl-Enter; the Docs panel on the left lists every type.
query Functions {
  functions {
    id
    name
    versions {
      id
      status
      workloadType
      deployment { gpuSpecifications { id gpu instanceType minInstances maxInstances } }
    }
  }
}
`;

const clusters = `# The clusters your tenant may deploy to, their GPUs and the operators they support.
query Clusters {
  clusters {
    id
    name
    attributes
    regions
    gpus { name instanceTypes }
  }
  operatorTypes { name kinds }
}
`;

const status = `# Live instance status. snapshot: true first sends the current state of every matching
# instance (kind SNAPSHOT), then every transition. Put a function id from the Functions tab in
# Variables. Each event's cursor resumes the stream: pass it as \`after\` to get exactly what followed.
subscription InstanceStatus($functionId: ID, $after: String) {
  instanceStatusChanged(functionId: $functionId, after: $after, snapshot: true) {
    cursor
    kind
    state
    previousState
    revisionId
    at
    message
    lag { skippedEvents resumeAfter }
    instance { id cluster { id name } gpuSpecification { id } }
  }
}
`;

/** The tabs a first visit opens with (GraphiQL keeps the user's own tabs after that). */
export function exampleTabs(config: PageConfig) {
  const headers = headersText(config);
  return [
    { query: functions, headers },
    { query: clusters, headers },
    { query: status, variables: JSON.stringify({ functionId: '' }, null, 2), headers },
  ];
}
