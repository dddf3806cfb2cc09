import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { SHELLS, type Shell } from './completion.js';
import type { Ctx, GlobalOptions } from './context.js';
import { EXIT, exitCodeOf, formatError } from './errors.js';
import type { Io } from './io.js';
import { FORMATS, type OutputFormat } from './formats.js';
// types only: each command's module is imported when it runs
import type { DeployOptions } from './deploy.js';
import type { CreateOptions } from './functions.js';
import type { LoginOptions } from './login.js';
import type { SubmitOptions, UpdateOptions } from './gpu-spec.js';
import type { PatchOptions, SubmitManifestOptions } from './operator.js';
import type { StatusOptions } from './rollout.js';
import type { CreateTaskOptions, ListOptions, TaskWatchOptions } from './tasks.js';
import type { WatchOptions } from './watch.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const EXIT_CODES_HELP = `
Configuration (first found wins):
  --url / --token flags, then NVCF_URL / NVCF_TOKEN, then the file \`nvcf login\` writes:
  $XDG_CONFIG_HOME/nvcf/config.json (default ~/.config/nvcf/config.json), mode 0600.

Output:
  -o table|json|yaml|id on every command that prints an object (id: only its ids, one per
  line, for VAR=$(nvcf … -o id)); with --watch, json is one object
  per line and yaml one document per item. Colours follow the terminal, NO_COLOR and --no-color;
  --no-tty prints plain lines instead of redrawing the screen.

Exit codes:
  0    success; rollout status --watch: the revision is APPLIED; tasks watch: the task COMPLETED
  1    the rollout FAILED or passed its deadline (the failing instances' messages on stderr);
       tasks watch: the task ended ERRORED, CANCELED or EXCEEDED_* (its message on stderr)
  2    usage: a bad command line, no URL or token configured, an unreadable or invalid file
  3    the API refused the request: \`error: CODE: message\` (codes: docs/errors.md)
  4    the gateway could not be reached or timed out (UNAVAILABLE, TIMEOUT): retry later
  130  interrupted (Ctrl-C)
`;

const int =
  (what: string) =>
  (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${what} must be an integer`);
    return Number(value);
  };
const collect = (value: string, previous: string[]): string[] => [...previous, value];
const output = () => new Option('-o, --output <format>', 'output format').choices(FORMATS).default('table');
/** The Helm or container workload flags (functions.ts `WorkloadFlags`) of `functions create` and `tasks create`. */
const workloadOptions = (cmd: Command) =>
  cmd
    .option('--helm-chart <uri>', 'Helm chart, oci://…/NAME-X.Y.Z.tgz')
    .option('--helm-service <name>', "the chart's Service the worker sidecar sends requests to")
    .option('--container-image <image>', 'container image')
    .option('--arg <arg>', 'container argument (repeatable)', collect, [])
    .option('--env <key=value>', 'container environment variable (repeatable)', collect, []);
/** Where it runs: the GPU specification flags of `deploy` and `tasks create`. */
const placementOptions = (cmd: Command) =>
  cmd
    .requiredOption('--gpu <gpu>', 'GPU, e.g. L40S (see `nvcf clusters`)')
    .requiredOption('--instance-type <type>', 'instance type, e.g. gl40s_1.br25_2xlarge')
    .option('--cluster <cluster>', 'only this cluster (repeatable)', collect, [])
    .option('--region <region>', 'only this region (repeatable)', collect, []);

/** The options of a command that only reads. */
type Read = { output: OutputFormat };

/** A command's body: its options typed as declared on its Command (commander checks them, then hands them over untyped). */
type Action<O> = (ctx: Ctx, args: (string | undefined)[], opts: O, cmd: Command) => Promise<number>;

/** The `nvcf` command tree; `done` receives the exit code of the command that ran. */
export function buildProgram(io: Io, done: (code: number) => void): Command {
  const act =
    <O = Record<string, never>>(fn: Action<O>) =>
    async (...received: unknown[]) => {
      const cmd = received[received.length - 1] as Command;
      // loaded when a command runs: --help and --version pay for no renderer and no client
      const { createContext } = await import('./context.js');
      const ctx = createContext(io, cmd.optsWithGlobals<GlobalOptions>());
      try {
        done(await fn(ctx, cmd.processedArgs as (string | undefined)[], cmd.opts() as O, cmd));
      } catch (err) {
        const text = formatError(err);
        io.stderr.write(text.replace(/^error:/, ctx.errColors.red('error:')));
        done(ctx.signal.aborted ? EXIT.interrupted : exitCodeOf(err));
      }
    };
  // each command's module loads when it runs: `nvcf --help` pays for none of them
  const functions = () => import('./functions.js');
  const gpuSpec = () => import('./gpu-spec.js');
  const operator = () => import('./operator.js');
  const login = () => import('./login.js');
  const tasks = () => import('./tasks.js');

  const program = new Command('nvcf')
    .description('Manage NVCF cloud functions: create, deploy, update in place, and follow rollouts.')
    .version(VERSION, '-V, --version')
    .option('--url <url>', 'the gateway GraphQL endpoint (else NVCF_URL, else `nvcf login`)')
    .option('--token <token>', 'the bearer token (else NVCF_TOKEN, else `nvcf login`)')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .option('--no-tty', 'plain lines, never a redrawn screen')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => {
        io.stdout.write(s);
      },
      writeErr: (s) => {
        io.stderr.write(s);
      },
      getOutHelpWidth: () => io.stdout.columns ?? 80,
      getErrHelpWidth: () => io.stderr.columns ?? 80,
    });

  program
    .command('login')
    .description('save the gateway URL and a token, once the gateway accepted the token')
    .option('--token-stdin', 'read the token from standard input (keeps it out of shell history)')
    .addHelpText('after', '\nExample:\n  nvcf login --url http://127.0.0.1:4000/graphql --token dev-token-a')
    .action(
      act<LoginOptions>(async (ctx, _a, o, cmd) => (await login()).login(ctx, cmd.optsWithGlobals<GlobalOptions>(), o)),
    );
  program
    .command('logout')
    .description('forget the saved token')
    .action(act(async (ctx) => (await login()).logout(ctx)));
  const config = program.command('config').description('the configuration in effect');
  config
    .command('view')
    .description('the URL and token in effect and where each comes from')
    .addOption(output())
    .action(act<Read>(async (ctx, _a, o) => (await login()).view(ctx, o)));

  const fns = program.command('functions').description('functions and their versions');
  fns
    .command('list')
    .description('the functions of your tenant')
    .addOption(output())
    .action(act<Read>(async (ctx, _a, o) => (await functions()).list(ctx, o)));
  fns
    .command('get')
    .argument('<function-id>')
    .description('a function and its versions')
    .addOption(output())
    .action(act<Read>(async (ctx, [id], o) => (await functions()).get(ctx, id!, o)));
  fns
    .command('undeploy')
    .argument('<version-id>')
    .description('stop a deployed function version: its instances terminate (--graceful: after in-flight requests)')
    .option('--graceful', 'let instances finish in-flight work before they terminate')
    .addOption(output())
    .action(act<Read & { graceful?: boolean }>(async (ctx, [id], o) => (await functions()).undeploy(ctx, id!, o)));
  workloadOptions(
    fns
      .command('create')
      .argument('[name]', "the function's name (a new version with --function keeps its function's)")
      .description('create a Helm or container function (or, with --function, a new version of one)'),
  )
    .option('--inference-url <path>', 'inference path, e.g. /v1/infer')
    .option('--inference-port <port>', 'inference port', int('--inference-port'))
    .option('--health-uri <path>', 'health check path')
    .option('--health-port <port>', 'health check port', int('--health-port'))
    .option('--health-protocol <protocol>', 'HTTP or gRPC (default HTTP)')
    .option('--health-timeout <duration>', 'health check timeout, e.g. PT10S')
    .option('--health-status <code>', 'expected health status code', int('--health-status'))
    .option('--function <function-id>', 'add a version to this function instead of creating one')
    .addOption(output())
    .addHelpText(
      'after',
      '\nExample:\n  nvcf functions create echo --helm-chart oci://nvcr.io/nca-a/echo-1.2.3.tgz --helm-service echo \\\n    --inference-url /v1/infer --inference-port 8000',
    )
    .action(act<CreateOptions>(async (ctx, [name], o) => (await functions()).create(ctx, name, o)));

  program
    .command('clusters')
    .description('clusters you may deploy to, their GPUs and instance types')
    .addOption(output())
    .action(act<Read>(async (ctx, _a, o) => (await import('./clusters.js')).list(ctx, o)));

  placementOptions(
    program
      .command('deploy')
      .argument('<version-id>')
      .description('deploy a function version on one GPU specification'),
  )
    .requiredOption('--min <n>', 'minimum instances', int('--min'))
    .requiredOption('--max <n>', 'maximum instances', int('--max'))
    .option('--max-concurrency <n>', 'maximum concurrent requests per instance', int('--max-concurrency'))
    .option('--attribute <attribute>', 'required cluster attribute (repeatable)', collect, [])
    .option('--values <file>', 'Helm values, YAML (repeatable: merged in order)', collect, [])
    .option('--set <key=value>', 'a Helm value, as helm --set (repeatable)', collect, [])
    .option('--set-string <key=value>', 'a Helm value kept as a string (repeatable; applied after --set)', collect, [])
    .option('--service-name <name>', 'operator workloads: the Service the worker sidecar sends requests to')
    .option('--service-port <port>', 'operator workloads: its port', int('--service-port'))
    .option('--patch <file>', 'operator workloads: merge patches, YAML documents (repeatable)', collect, [])
    .option('-w, --watch', 'follow the rollout to its end (exit 0 APPLIED, 1 FAILED)')
    .addOption(output())
    .addHelpText(
      'after',
      '\nExample:\n  nvcf deploy VERSION_ID --gpu L40S --instance-type gl40s_1.br25_2xlarge --min 2 --max 4 --values values.yaml --watch',
    )
    .action(act<DeployOptions>(async (ctx, [id], o) => (await import('./deploy.js')).deploy(ctx, id!, o)));

  const spec = program
    .command('gpu-spec')
    .description('GPU specifications: their configuration, revisions and instances');
  spec
    .command('get')
    .argument('<gpu-spec-id>')
    .description('a GPU specification, its revisions and instances')
    .addOption(output())
    .action(act<Read>(async (ctx, [id], o) => (await gpuSpec()).get(ctx, id!, o)));
  spec
    .command('update')
    .argument('<gpu-spec-id>')
    .description('submit a new revision (in-place update) and/or new instance bounds')
    .option(
      '--set <key=value>',
      "change one key of the latest revision's configuration (repeatable; dotted paths, YAML-typed values, null deletes)",
      collect,
      [],
    )
    .option(
      '--set-string <key=value>',
      'the same, the value kept as a string (`image.tag=1.5`; applied after --set)',
      collect,
      [],
    )
    .option(
      '--values <file>',
      'the whole configuration from YAML (repeatable: merged in order; --set applies on top)',
      collect,
      [],
    )
    .option('--min <n>', 'minimum instances', int('--min'))
    .option('--max <n>', 'maximum instances', int('--max'))
    .option('--dry-run', 'print the configuration the revision would get; submit nothing')
    .option('-w, --watch', 'follow the rollout to its end (exit 0 APPLIED, 1 FAILED)')
    .addOption(output())
    .addHelpText(
      'after',
      '\nExamples:\n  nvcf gpu-spec update SPEC_ID --set replicas=3 --set image.tag=v2 --watch\n  nvcf gpu-spec update SPEC_ID --values values.yaml',
    )
    .action(act<UpdateOptions>(async (ctx, [id], o) => (await gpuSpec()).update(ctx, id!, o)));
  spec
    .command('rollback')
    .argument('<gpu-spec-id>')
    .description('roll forward to the last applied configuration')
    .option('-w, --watch', 'follow the rollout to its end (exit 0 APPLIED, 1 FAILED)')
    .addOption(output())
    .action(act<SubmitOptions>(async (ctx, [id], o) => (await gpuSpec()).rollback(ctx, id!, o)));

  const rollout = program.command('rollout').description("the rollout of a GPU specification's latest revision");
  rollout
    .command('status')
    .argument('<gpu-spec-id>')
    .description('where the rollout stands; --watch follows it to its end like kubectl rollout status')
    .option(
      '-w, --watch',
      'follow it: a live view on a terminal, a line per transition when piped; exit 0 APPLIED, 1 FAILED or past its deadline',
    )
    .addOption(output())
    .action(act<StatusOptions>(async (ctx, [id], o) => (await import('./rollout.js')).status(ctx, id!, o)));

  program
    .command('watch')
    .description('stream instance status events until Ctrl-C (at least one filter)')
    .option('--function <function-id>', 'instances of this function')
    .option('--function-version <version-id>', 'instances of this version')
    .option('--gpu-spec <gpu-spec-id>', 'instances of this GPU specification')
    .option('--instance <instance-id>', 'this instance')
    .option('--after <cursor>', 'resume after this cursor (from -o json, or the line printed on Ctrl-C)')
    .option('--snapshot', 'first the current state of every matching instance')
    .addOption(output())
    .action(act<WatchOptions>(async (ctx, _a, o) => (await import('./watch.js')).watch(ctx, o)));

  const op = program.command('operator').description('operator workloads (Dynamo, NIM) from Kubernetes manifests');
  op.command('submit')
    .argument('[name]', "the function's name (a new version with --function keeps its function's)")
    .description('create an operator function from manifests (YAML, several documents per file)')
    .requiredOption('-f, --file <file>', 'manifests, YAML (repeatable)', collect, [])
    .option(
      '--operator-type <type>',
      "operator type (repeatable; default: the types that drive the manifests' kinds)",
      collect,
      [],
    )
    .option('--function <function-id>', 'add a version to this function instead of creating one')
    .option('--inference-url <path>', 'inference path')
    .option('--inference-port <port>', 'inference port', int('--inference-port'))
    .addOption(output())
    .addHelpText(
      'after',
      '\nExample:\n  nvcf operator submit llama -f nim.yaml\n  nvcf deploy VERSION_ID --gpu L40S --instance-type gl40s_1.br25_2xlarge --min 1 --max 2 --service-name llama-svc --service-port 8000',
    )
    .action(act<SubmitManifestOptions>(async (ctx, [name], o) => (await operator()).submit(ctx, name, o)));
  op.command('patch')
    .argument('<gpu-spec-id>')
    .description("submit merge patches (YAML documents) as a new revision; they replace the previous revision's")
    .requiredOption('-f, --file <file>', 'merge patches, YAML (repeatable)', collect, [])
    .option('-w, --watch', 'follow the rollout to its end (exit 0 APPLIED, 1 FAILED)')
    .addOption(output())
    .action(act<PatchOptions>(async (ctx, [id], o) => (await operator()).patch(ctx, id!, o)));

  const task = program.command('tasks').description('tasks: short-lived workloads that run to completion');
  const interval = () =>
    new Option('--interval <ms>', 'milliseconds before reading the task again (or reconnecting) after an outage')
      .argParser(int('--interval'))
      .default(2000);
  const createTask = task
    .command('create')
    .argument('<name>', "the task's name")
    .description('queue a container, Helm or operator task on one GPU type');
  placementOptions(workloadOptions(createTask))
    .option('-f, --file <file>', 'operator manifests, YAML (repeatable)', collect, [])
    .option(
      '--operator-type <type>',
      "operator type (repeatable; default: the types that drive the manifests' kinds)",
      collect,
      [],
    )
    .option('--values <file>', 'configuration, YAML (repeatable: merged in order)', collect, [])
    .option('--set <key=value>', 'a configuration value, as helm --set (repeatable)', collect, [])
    .option('--set-string <key=value>', 'a configuration value kept as a string (repeatable)', collect, [])
    .option('--max-runtime <duration>', 'how long it may run, ISO 8601 (default P1D)')
    .option('--max-queued <duration>', 'how long it may wait to run, ISO 8601 (default P3D)')
    .option('--termination-grace <duration>', 'how long a stopped workload gets to exit (default PT30S)')
    .option('-w, --watch', 'follow it to its end (exit 0 COMPLETED, 1 any other end)')
    .addOption(interval())
    .addOption(output())
    .addHelpText(
      'after',
      '\nExamples:\n  nvcf tasks create eval --container-image nvcr.io/nca-a/eval:1 --gpu L40S --instance-type gl40s_1.br25_2xlarge \\\n    --max-runtime PT1H --watch\n  nvcf tasks create graph -f dynamo-graph.yaml --gpu L40S --instance-type gl40s_1.br25_2xlarge --set nvcfSimulate.runMs=500',
    )
    .action(act<CreateTaskOptions>(async (ctx, [name], o) => (await tasks()).create(ctx, name!, o)));
  task
    .command('get')
    .argument('<task-id>')
    .description('a task and its transitions')
    .addOption(output())
    .action(act<Read>(async (ctx, [id], o) => (await tasks()).get(ctx, id!, o)));
  task
    .command('list')
    .description('the tasks of your tenant, newest first')
    .option('--status <status>', 'only tasks in this status')
    .option('--limit <n>', 'at most this many (default 20, at most 100)', int('--limit'))
    .option('--after <cursor>', 'the page after this cursor')
    .addOption(output())
    .action(act<ListOptions>(async (ctx, _a, o) => (await tasks()).list(ctx, o)));
  task
    .command('cancel')
    .argument('<task-id>')
    .description('end a task that has not ended (CANCELED)')
    .addOption(output())
    .action(act<Read>(async (ctx, [id], o) => (await tasks()).cancel(ctx, id!, o)));
  task
    .command('watch')
    .argument('<task-id>')
    .description('print its transitions until it ends: exit 0 COMPLETED, 1 any other end')
    .addOption(interval())
    .addOption(output())
    .action(act<TaskWatchOptions>(async (ctx, [id], o) => (await tasks()).watch(ctx, id!, o)));

  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .description('print a completion script for bash, zsh or fish, for every command and option')
    .addHelpText(
      'after',
      '\nExamples:\n  source <(nvcf completion bash)      # in ~/.bashrc\n  source <(nvcf completion zsh)       # in ~/.zshrc, after compinit\n  nvcf completion fish > ~/.config/fish/completions/nvcf.fish',
    )
    .action(
      act(async (ctx, [shell]) => {
        ctx.out((await import('./completion.js')).completionScript(shell as Shell, program));
        return EXIT.ok;
      }),
    );

  return program;
}

/** Runs one command line; returns the exit code. Writes only to `io`; never exits the process. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.stderr.write(formatError(err));
    return exitCodeOf(err);
  }
}
