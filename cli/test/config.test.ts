import { mkdtempSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configPath, readConfigFile, resolveConfig, writeConfigFile, redact } from '../src/config.js';

describe('configuration', () => {
  const home = mkdtempSync(join(tmpdir(), 'nvcf-config-'));
  const env = { XDG_CONFIG_HOME: home };

  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configPath(env)).toBe(join(home, 'nvcf', 'config.json'));
    expect(configPath({ HOME: '/home/x' })).toBe('/home/x/.config/nvcf/config.json');
  });

  it('is written readable by its owner only', async () => {
    await writeConfigFile(configPath(env), { url: 'http://file/graphql', token: 'file-token' });
    expect(statSync(configPath(env)).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'nvcf')).mode & 0o777).toBe(0o700);
    expect(await readConfigFile(configPath(env))).toEqual({ url: 'http://file/graphql', token: 'file-token' });
  });

  it('takes flags, then NVCF_URL / NVCF_TOKEN, then the file', async () => {
    await writeConfigFile(configPath(env), { url: 'http://file/graphql', token: 'file-token' });
    expect(await resolveConfig({}, env)).toMatchObject({
      url: { value: 'http://file/graphql', source: 'file' },
      token: { value: 'file-token', source: 'file' },
    });
    expect(await resolveConfig({}, { ...env, NVCF_TOKEN: 'env-token' })).toMatchObject({
      url: { source: 'file' },
      token: { value: 'env-token', source: 'env' },
    });
    expect(
      await resolveConfig({ token: 'flag-token' }, { ...env, NVCF_TOKEN: 'env-token', NVCF_URL: 'http://env/graphql' }),
    ).toMatchObject({
      url: { value: 'http://env/graphql', source: 'env' },
      token: { value: 'flag-token', source: 'flag' },
    });
  });

  it('a broken file is a usage error, unless flags and variables say everything', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'nvcf-config-'));
    mkdirSync(join(broken, 'nvcf'));
    writeFileSync(join(broken, 'nvcf', 'config.json'), '{not json');
    await expect(resolveConfig({}, { XDG_CONFIG_HOME: broken })).rejects.toThrow(/is not JSON/);
    expect((await resolveConfig({ url: 'http://x', token: 't' }, { XDG_CONFIG_HOME: broken })).token?.source).toBe(
      'flag',
    );
  });

  it('never shows a whole token', () => {
    expect(redact('dev-token-a')).toBe('dev-…-a');
    expect(redact('short')).toBe('****');
  });
});
