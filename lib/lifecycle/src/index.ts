export { DisposalStack, build } from './stack.js';
export { withDirLock, LockTimeout } from './dir-lock.js';
export { PhaseState, isClosing, type Phase, type PhaseKind } from './phase.js';
export { ServingPhase, type Readiness } from './serving.js';
export { periodic } from './periodic.js';
