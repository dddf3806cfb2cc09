import { processIo } from './io.js';
import { run } from './program.js';

// The first SIGINT (Ctrl-C) or SIGTERM stops the command cleanly (a live view gives the terminal
// back, `watch` says how to resume); a second one exits at once.
const interrupt = new AbortController();
let signal: NodeJS.Signals | undefined;
const onSignal = (s: NodeJS.Signals) => {
  if (signal) process.exit(s === 'SIGTERM' ? 143 : 130);
  signal = s;
  interrupt.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await run(process.argv.slice(2), processIo(interrupt.signal));
// 128 + the signal's number, as shells report it
const exitCode = code === 130 && signal === 'SIGTERM' ? 143 : code;
// keep-alive sockets and the like must not hold the exit once the command is done
process.stdout.write('', () => process.exit(exitCode));
