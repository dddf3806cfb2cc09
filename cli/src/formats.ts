/** The output formats of `-o`; apart from output.ts so that the command tree loads no renderer. */
/** `id`: only the ids of what the command printed, one per line, for `X=$(nvcf … -o id)` in scripts. */
export const FORMATS = ['table', 'json', 'yaml', 'id'] as const;
export type OutputFormat = (typeof FORMATS)[number];
