/** The output formats of `-o`; apart from output.ts so that the command tree loads no renderer. */
export const FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof FORMATS)[number];

