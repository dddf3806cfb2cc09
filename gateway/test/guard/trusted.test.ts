import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '@nvcf/errors';
import { defaultTrustedDocumentsFile } from '../../src/guard/trusted.js';
import { TrustedDocuments, loadTrustedDocuments, TrustedDocumentsInvalid } from '../../src/guard/trusted.js';

const doc = 'query Clusters { clusters { id } }';
const hex = createHash('sha256').update(doc).digest('hex');
const docs = new Map([[hex, doc]]);
const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return codeOf(err);
  }
  throw new Error('expected a refusal');
};

describe('trusted documents', () => {
  it('loads the generated manifest, every document hashing to its id', () => {
    const manifest = JSON.parse(readFileSync(defaultTrustedDocumentsFile(), 'utf8')) as Record<string, string>;
    const loaded = loadTrustedDocuments(defaultTrustedDocumentsFile());
    expect(loaded.size).toBe(Object.keys(manifest).length);
    expect(loaded.size).toBeGreaterThan(5);
  });

  it('refuses a manifest whose document does not hash to its id, or that is not one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trusted-'));
    try {
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ [`sha256:${hex}`]: `${doc} ` }));
      expect(() => loadTrustedDocuments(join(dir, 'bad.json'))).toThrow(/does not hash to it/);
      writeFileSync(join(dir, 'list.json'), '[]');
      expect(() => loadTrustedDocuments(join(dir, 'list.json'))).toThrow(TrustedDocumentsInvalid);
      expect(() => loadTrustedDocuments(join(dir, 'missing.json'))).toThrow(/cannot be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves an id (documentId or APQ sha256Hash), with or without its document, to the manifest text', () => {
    const t = new TrustedDocuments('allow', docs);
    for (const params of [
      { documentId: `sha256:${hex}` },
      { documentId: hex },
      { extensions: { persistedQuery: { version: 1, sha256Hash: hex }, other: 1 } },
      { query: doc, documentId: `sha256:${hex}` },
    ]) {
      const r = t.resolve({ ...params, variables: { a: 1 } });
      expect(r.documentId).toBe(`sha256:${hex}`);
      expect(r.params.query).toBe(doc);
      expect(r.params.variables).toEqual({ a: 1 });
      expect(r.params).not.toHaveProperty('documentId');
      expect((r.params.extensions as Record<string, unknown> | undefined)?.persistedQuery).toBeUndefined();
    }
    const plain = { query: '{ clusters { id } }' };
    expect(t.resolve(plain).params).toBe(plain);
  });

  it('refuses a known id sent with another document', () => {
    expect(
      code(() => new TrustedDocuments('allow', docs).resolve({ query: '{ clusters { id name } }', documentId: hex })),
    ).toBe('BAD_USER_INPUT');
  });

  it("allow: an unknown id alone is PERSISTED_QUERY_NOT_FOUND, with a document it runs ad hoc (APQ's retry)", () => {
    const t = new TrustedDocuments('allow', docs);
    expect(code(() => t.resolve({ extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }))).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
    const r = t.resolve({
      query: '{ functions { id } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
    });
    expect(r).toEqual({ params: { query: '{ functions { id } }' } });
  });

  it('require: an ad-hoc document is PERSISTED_QUERY_REQUIRED, an unknown id PERSISTED_QUERY_NOT_FOUND even with a document', () => {
    const t = new TrustedDocuments('require', docs);
    expect(code(() => t.resolve({ query: '{ functions { id } }' }))).toBe('PERSISTED_QUERY_REQUIRED');
    expect(code(() => t.resolve({}))).toBe('PERSISTED_QUERY_REQUIRED');
    expect(code(() => t.resolve({ query: '{ functions { id } }', documentId: `sha256:${'0'.repeat(64)}` }))).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
    expect(code(() => t.resolve({ documentId: 'not-a-hash' }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(code(() => t.resolve({ documentId: 42 }))).toBe('BAD_USER_INPUT');
    expect(t.resolve({ documentId: `sha256:${hex}` }).params.query).toBe(doc);
  });

  it('off: no id is looked up', () => {
    const t = new TrustedDocuments('off');
    expect(code(() => t.resolve({ documentId: hex }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(t.resolve({ query: doc, documentId: hex })).toEqual({ params: { query: doc } });
  });
});
