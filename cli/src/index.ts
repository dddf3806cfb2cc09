/** @nvcf/cli: the `nvcf` command line, runnable in-process through `run(argv, io)`. docs/cli.md. */
export { run, buildProgram } from './program.js';
export { EXIT } from './errors.js';
export { memoryIo, processIo } from './io.js';
export type { Io, MemoryIo, OutputStream } from './io.js';
