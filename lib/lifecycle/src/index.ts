export { DisposalStack, build } from './stack.js';
export { withDirLock, LockTimeout } from './dir-lock.js';
