import type { Client, types } from 'cassandra-driver';
import { MigrationFileError } from '../errors.js';

/**
 * A data step in a migration file, for the one thing CQL cannot say: move the rows of one table
 * into another (a new primary key needs a new table).
 *
 *   COPY ROWS FROM old_table (a, b, c) TO new_table [USING TIMESTAMP c];
 *
 * Every row of `old_table` is read (paged) and written to `new_table` with the same column names.
 * With `USING TIMESTAMP c` each row is written with column `c` (a bigint: microseconds) as its
 * write timestamp: a table whose rows are resolved newest-by-timestamp keeps that order, so a live
 * writer racing the copy with a newer value wins whatever the order of the two writes, and an
 * interrupted copy re-run writes the same cells again.
 */
export interface CopyRows {
  from: string;
  to: string;
  columns: string[];
  timestampColumn?: string;
}

const IDENT = '[a-z][a-z0-9_]*';
const COPY = new RegExp(
  `^COPY\\s+ROWS\\s+FROM\\s+(${IDENT})\\s*\\(([^)]*)\\)\\s+TO\\s+(${IDENT})(?:\\s+USING\\s+TIMESTAMP\\s+(${IDENT}))?$`,
  'i',
);

/** null when `stmt` is plain CQL; the parsed step when it is a COPY ROWS; an error when it is a malformed one. */
export function parseCopyRows(stmt: string): CopyRows | null {
  const text = stmt.replace(/\s+/g, ' ').trim();
  if (!/^COPY\s+ROWS\b/i.test(text)) return null;
  const m = COPY.exec(text);
  if (!m)
    throw new MigrationFileError(`not a COPY ROWS step: '${text}' (COPY ROWS FROM t (a, b) TO u [USING TIMESTAMP a])`);
  const columns = m[2].split(',').map((c) => c.trim().toLowerCase());
  if (!columns.every((c) => new RegExp(`^${IDENT}$`).test(c)))
    throw new MigrationFileError(`COPY ROWS: column list '${m[2]}' is not plain column names`);
  const timestampColumn = m[4]?.toLowerCase();
  if (timestampColumn && !columns.includes(timestampColumn))
    throw new MigrationFileError(`COPY ROWS: USING TIMESTAMP ${timestampColumn} is not one of the copied columns`);
  return { from: m[1].toLowerCase(), to: m[3].toLowerCase(), columns, timestampColumn };
}

const WINDOW = 64;

/** Runs a COPY ROWS step with `client` bound to the keyspace; returns how many rows it wrote. */
export async function copyRows(client: Client, step: CopyRows): Promise<number> {
  const cols = step.columns.join(', ');
  const insert =
    `INSERT INTO ${step.to} (${cols}) VALUES (${step.columns.map(() => '?').join(', ')})` +
    (step.timestampColumn ? ' USING TIMESTAMP ?' : '');
  let written = 0;
  let pageState: string | undefined;
  do {
    const rs: types.ResultSet = await client.execute(`SELECT ${cols} FROM ${step.from}`, [], {
      prepare: true,
      fetchSize: 500,
      pageState,
    });
    const rows = rs.rows;
    for (let i = 0; i < rows.length; i += WINDOW) {
      await Promise.all(
        rows.slice(i, i + WINDOW).map((r) => {
          const values = step.columns.map((c) => r.get(c) as unknown);
          if (step.timestampColumn) values.push(r.get(step.timestampColumn));
          return client.execute(insert, values, { prepare: true });
        }),
      );
    }
    written += rows.length;
    pageState = rs.pageState ?? undefined;
  } while (pageState);
  return written;
}
