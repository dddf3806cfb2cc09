export { DisposalStack, build } from './stack.js';
