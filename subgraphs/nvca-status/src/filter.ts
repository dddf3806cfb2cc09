export { matches, hasFilter } from '@nvcf/status-stream';
