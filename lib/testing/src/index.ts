export { waitUntil, WaitTimeout, GiveUp } from './wait.js';
