/**
 * npm run schema:check [-- --dir DIR]: the schema against schema/baseline/ (docs/schema.md).
 * Exit 1 on a breaking change, or on a baseline change that breaks something BREAKING.md does
 * not name (compared with the baseline at SCHEMA_BASELINE_REF, default HEAD, when git has it).
 */
import { execFileSync } from 'node:child_process';
import { checkSchema, schemaDir } from './governance.js';

const args = process.argv.slice(2);
const at = args.indexOf('--dir');
const dir = at >= 0 ? args[at + 1] : undefined;
const ref = process.env.SCHEMA_BASELINE_REF || 'HEAD';

// the committed baseline; a copy elsewhere (--dir) has no history to compare with
const fromGit = (file: string): string | undefined => {
  try {
    return execFileSync('git', ['show', `${ref}:schema/baseline/${file}`], {
      cwd: schemaDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
};

const report = await checkSchema({ dir, previousBaseline: dir ? undefined : fromGit });
for (const line of report.lines) console.log(line);
const count = (c: string) => report.changes.filter((x) => x.criticality === c).length;
const summary = `${count('breaking')} breaking, ${count('dangerous')} dangerous, ${count('safe')} safe change(s) against schema/baseline/`;
if (report.ok) {
  console.log(`schema check passed: ${summary}`);
} else {
  console.error(
    `schema check failed: ${summary}. Keep the old names (add, don't rename), or accept the break on purpose: npm run schema:baseline and a BREAKING.md entry naming each change, in the same commit (docs/schema.md).`,
  );
  process.exitCode = 1;
}
