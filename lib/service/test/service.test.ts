import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@nvcf/config';
import { readSecret, RequestMetrics, readCassandraConfig } from '../src/index.js';

describe('secrets', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-'));
  const file = path.join(dir, 's');
  writeFileSync(file, `${'k'.repeat(32)}\n`);
  it('come from the variable or from the file it names (a secret mount), trimmed', () => {
    expect(readSecret({ S: 'v'.repeat(20) }, 'S', 'hint')).toBe('v'.repeat(20));
    expect(readSecret({ S_FILE: file }, 'S', 'hint')).toBe('k'.repeat(32));
  });
  it('are required, long enough, from one source, and a missing file is named', () => {
    expect(() => readSecret({}, 'S', 'what it signs')).toThrow(
      new ConfigError('S (or S_FILE) is required: what it signs'),
    );
    expect(() => readSecret({ S: 'short' }, 'S', 'h')).toThrow('fewer than 16 characters');
    expect(() => readSecret({ S: 'v'.repeat(20), S_FILE: file }, 'S', 'h')).toThrow('both set');
    expect(() => readSecret({ S_FILE: path.join(dir, 'nope') }, 'S', 'h')).toThrow(/S_FILE=.*nope cannot be read/);
  });
  it('keyspace suffixes are refused unless they are plain identifiers', () => {
    expect(() =>
      readCassandraConfig({ CASSANDRA_CONTACT_POINTS: 'a:1', CASSANDRA_KEYSPACE_SUFFIX: '_x; DROP' }),
    ).toThrow('CASSANDRA_KEYSPACE_SUFFIX');
    expect(readCassandraConfig({ CASSANDRA_CONTACT_POINTS: 'a:1, b:2' }).contactPoints).toEqual(['a:1', 'b:2']);
  });
});

describe('request metrics', () => {
  it('count, errors and a latency histogram per handler, with the series bounded', () => {
    const m = new RequestMetrics('x', 2);
    m.observe('a', 3, false);
    m.observe('a', 30, true);
    m.observe('b', 700, false);
    m.observe('c', 1, false);
    const text = m.render();
    expect(text).toContain('x_requests_total{handler="a"} 2');
    expect(text).toContain('x_request_errors_total{handler="a"} 1');
    expect(text).toContain('x_request_duration_ms_bucket{handler="a",le="5"} 1');
    expect(text).toContain('x_request_duration_ms_bucket{handler="a",le="50"} 2');
    expect(text).toContain('x_request_duration_ms_bucket{handler="b",le="500"} 0');
    expect(text).toContain('x_requests_total{handler="other"} 1');
    expect(text).not.toContain('handler="c"');
  });
});
