export { waitUntil, WaitTimeout, GiveUp } from './wait.js';
export { startOtlpReceiver } from './otlp.js';
export type { OtlpReceiver } from './otlp.js';
export { dashboardFamilies, exportedFamilies } from './dashboard.js';
export { podAdmissionReview } from './admission.js';
