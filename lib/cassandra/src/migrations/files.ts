import fs from 'node:fs';
import path from 'node:path';
import { keyspaceName } from '../client.js';
import { MigrationFileError } from '../errors.js';
import { parseCopyRows } from './copy.js';

export interface Migration {
  keyspace: string;
  version: number;
  /** file name, for messages */
  file: string;
  statements: string[];
}

const FILE = /^(\d+)_[A-Za-z0-9_-]+\.cql$/;

/**
 * Statements end with `;` at the end of a line (a line holding only `;` too). Splitting on
 * line ends, not on every `;`, keeps semicolons inside string literals and map values intact.
 * Whole-line `--` and `//` comments are dropped.
 */
export function splitStatements(text: string): string[] {
  const lines = text.split(/\r?\n/).filter((l) => !/^\s*(--|\/\/)/.test(l));
  const out: string[] = [];
  let cur: string[] = [];
  for (const line of lines) {
    const end = /;\s*$/.test(line);
    cur.push(end ? line.replace(/;\s*$/, '') : line);
    if (!end) continue;
    const stmt = cur.join('\n').trim();
    if (stmt) out.push(stmt);
    cur = [];
  }
  const rest = cur.join('\n').trim();
  if (rest) out.push(rest);
  return out;
}

/** `dir/<keyspace>/NNN_name.cql`, per keyspace sorted by version; versions start at 1 and are unique. */
export function loadMigrations(dir: string): Map<string, Migration[]> {
  if (!fs.existsSync(dir)) throw new MigrationFileError(`migrations folder ${dir} does not exist`);
  const out = new Map<string, Migration[]>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let keyspace: string;
    try {
      keyspace = keyspaceName(entry.name);
    } catch (err) {
      throw new MigrationFileError(`${path.join(dir, entry.name)}: folder name is not a keyspace name`, { cause: err });
    }
    const list: Migration[] = [];
    for (const file of fs.readdirSync(path.join(dir, entry.name))) {
      if (!file.endsWith('.cql')) continue;
      const m = FILE.exec(file);
      if (!m) throw new MigrationFileError(`${keyspace}/${file}: expected NNN_name.cql`);
      const version = Number(m[1]);
      if (version < 1) throw new MigrationFileError(`${keyspace}/${file}: versions start at 1 (0 is the empty ledger)`);
      const clash = list.find((x) => x.version === version);
      if (clash) throw new MigrationFileError(`${keyspace}: ${clash.file} and ${file} share version ${version}`);
      const statements = splitStatements(fs.readFileSync(path.join(dir, entry.name, file), 'utf8'));
      // a malformed data step is refused with the other file errors, before anything is applied
      for (const stmt of statements) {
        try {
          parseCopyRows(stmt);
        } catch (err) {
          throw new MigrationFileError(`${keyspace}/${file}: ${(err as Error).message}`, { cause: err });
        }
      }
      list.push({ keyspace, version, file, statements });
    }
    out.set(
      keyspace,
      list.sort((a, b) => a.version - b.version),
    );
  }
  return out;
}
