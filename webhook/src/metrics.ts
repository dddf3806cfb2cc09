import { counter, histogram } from '@nvcf/telemetry';

/** patched, unchanged (already carried everything), skipped (not an instance namespace), error */
export const admissions = counter(
  'nvca_webhook_admissions_total',
  'Admission reviews answered by the NVCF metadata webhook, by result (patched, unchanged, skipped, error).',
  ['result'],
);
export const admissionSeconds = histogram(
  'nvca_webhook_admission_seconds',
  'Time from an admission review received to its answer sent, by result.',
  ['result'],
);
