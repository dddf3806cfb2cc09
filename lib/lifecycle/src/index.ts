export { DisposalStack } from './stack.js';
