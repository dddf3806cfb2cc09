export { waitUntil, WaitTimeout } from './wait.js';
