export { Codes } from './codes.js';
export type { Code } from './codes.js';
export { fail, codeOf, maskError } from './fail.js';
export { renderErrorDocs } from './docs.js';
export { isOutage, errorText } from './outage.js';
