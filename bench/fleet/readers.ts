// The three readers of the status stream the fleet benchmark measures, as its rows name them.
export const READERS = ['nvcf', 'icms', 'nvca-status'] as const;
export type Reader = (typeof READERS)[number];
export type PerReader<T> = Record<Reader, T>;
