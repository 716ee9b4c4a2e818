/**
 * What a session to the shared state is opened with, against libpq's rules (fe-connect.c): connect_timeout
 * read by parse_int_param and bounded as connectDBComplete bounds it, sslmode checked and ignored on a unix
 * socket, the limits from options= or PGOPTIONS, the application name. Expected values worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { applicationName, sessionSettings } from '../../../src/state/pg/pg-settings.js';
import { limitsFrom, setLocal, startupOptions } from '../../../src/state/pg/pg-limits.js';
import { scrub, stateStoreFailure } from '../../../src/state/pg/pg-connect.js';
import { UsageError } from '../../../src/domain/errors.js';
import { readStateUrl } from '../../../src/config/state-url.js';

const TCP = 'postgresql://energy@db.internal/energy';
const SOCKET = 'postgresql://energy@/energy?host=/run/postgresql';
const settings = async (url: string, env: NodeJS.ProcessEnv = {}) => sessionSettings(readStateUrl(url), env);

describe('connect_timeout, as libpq reads and bounds it', () => {
  it.each([
    ['10', 10_000],
    [' 7 ', 7_000],
    ['1', 2_000],
    ['2', 2_000],
    ['0', 0],
    ['-5', 0],
    ['2147483647', 0],
  ])('connect_timeout=%s → %d ms (0: no limit)', async (value, ms) => {
    const { config } = await settings(`${TCP}?connect_timeout=${encodeURIComponent(value)}`);
    expect(config.connectionTimeoutMillis).toBe(ms);
  });

  it('10 s when neither the URL nor PGCONNECT_TIMEOUT says; the URL before PGCONNECT_TIMEOUT', async () => {
    expect((await settings(TCP)).config.connectionTimeoutMillis).toBe(10_000);
    expect((await settings(TCP, { PGCONNECT_TIMEOUT: '4' })).config.connectionTimeoutMillis).toBe(4_000);
    expect(
      (await settings(`${TCP}?connect_timeout=6`, { PGCONNECT_TIMEOUT: '4' })).config.connectionTimeoutMillis,
    ).toBe(6_000);
  });

  it.each(['1e9', '10s', '1.5', '', 'ten', '99999999999'])('refuses connect_timeout=%s (exit 2)', async (value) => {
    const refused = settings(`${TCP}?connect_timeout=${value}`);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(`connect_timeout "${value}" in the URL is not an integer`);
  });

  it('refuses a PGCONNECT_TIMEOUT of 1e9, naming the variable', async () => {
    await expect(settings(TCP, { PGCONNECT_TIMEOUT: '1e9' })).rejects.toThrow('in PGCONNECT_TIMEOUT is not an integer');
  });
});

describe('sslmode', () => {
  it('is ignored on a unix socket, as libpq never asks for SSL there', async () => {
    for (const mode of ['require', 'verify-full', 'prefer'])
      expect((await settings(`${SOCKET}&sslmode=${mode}`)).config.ssl).toBe(false);
    expect((await settings(SOCKET, { PGSSLMODE: 'require' })).config.ssl).toBe(false);
  });

  it('over TCP: require encrypts without checking, verify-full checks, disable and allow are plain', async () => {
    expect((await settings(`${TCP}?sslmode=require`)).config.ssl).toEqual({ rejectUnauthorized: false });
    expect((await settings(`${TCP}?sslmode=verify-full`)).config.ssl).toEqual({});
    expect((await settings(`${TCP}?sslmode=disable`)).config.ssl).toBe(false);
    expect((await settings(`${TCP}?sslmode=allow`)).config.ssl).toBe(false);
    expect((await settings(TCP, { PGSSLMODE: 'require' })).config.ssl).toEqual({ rejectUnauthorized: false });
    expect((await settings(`${TCP}?sslmode=disable`, { PGSSLMODE: 'require' })).config.ssl).toBe(false);
  });

  it('refuses a value libpq does not know, in the URL or PGSSLMODE (exit 2)', async () => {
    await expect(settings(`${TCP}?sslmode=bogus`)).rejects.toThrow(
      'sslmode "bogus" in the URL is not one of disable, allow, prefer, require, verify-ca, verify-full',
    );
    await expect(settings(TCP, { PGSSLMODE: 'bogus' })).rejects.toThrow('sslmode "bogus" in PGSSLMODE');
  });
});

describe('the time limits', () => {
  it('30 s, 10 s and 60 s unless -c options in options= (or PGOPTIONS) say otherwise', async () => {
    expect((await settings(TCP)).limits).toEqual({
      statement_timeout: '30s',
      lock_timeout: '10s',
      idle_in_transaction_session_timeout: '60s',
    });
    const fromEnv = await settings(TCP, { PGOPTIONS: '-c lock_timeout=2s --statement-timeout=5min' });
    expect(fromEnv.limits).toMatchObject({ lock_timeout: '2s', statement_timeout: '5min' });
    const fromUrl = await settings(`${TCP}?options=${encodeURIComponent('-clock_timeout=3s')}`, {
      PGOPTIONS: '-c lock_timeout=2s',
    });
    expect(fromUrl.limits.lock_timeout).toBe('3s');
  });

  it('keeps the other options, escaped for the server; SET LOCAL quotes the values', () => {
    const { limits, otherOptions } = limitsFrom('-c search_path=a\\ b -c lock_timeout=1s -e');
    expect(otherOptions).toEqual(['-c', 'search_path=a b', '-e']);
    expect(startupOptions(limits, otherOptions)).toBe(
      '-c statement_timeout=30s -c lock_timeout=1s -c idle_in_transaction_session_timeout=60s -c search_path=a\\ b -e',
    );
    expect(setLocal({ ...limits, lock_timeout: "1'0" })).toBe(
      "SET LOCAL statement_timeout = '30s'; SET LOCAL lock_timeout = '1''0'; SET LOCAL idle_in_transaction_session_timeout = '60s'",
    );
  });
});

describe('the session', () => {
  it('is named energy/<version> <host> <pid> unless the URL or PGAPPNAME names it, within 63 bytes', async () => {
    expect(applicationName('web-1', 42)).toBe('energy/dev web-1 42');
    const long = applicationName('h'.repeat(100), 123456);
    expect(Buffer.byteLength(long)).toBe(63);
    expect(long.endsWith(' 123456')).toBe(true);
    expect((await settings(`${TCP}?application_name=mine`)).config.application_name).toBe('mine');
    expect((await settings(TCP, { PGAPPNAME: 'env' })).config.application_name).toBe('env');
  });

  it('keeps TCP keepalives on (30 s idle) unless keepalives=0; keepalives_idle in seconds', async () => {
    expect((await settings(TCP)).config).toMatchObject({ keepAlive: true, keepAliveInitialDelayMillis: 30_000 });
    expect((await settings(`${TCP}?keepalives=0`)).config.keepAlive).toBe(false);
    expect((await settings(`${TCP}?keepalives_idle=5`)).config.keepAliveInitialDelayMillis).toBe(5_000);
  });

  it('takes the password from the URL, else PGPASSWORD, else the password file', async () => {
    expect(
      (await settings('postgresql://energy:u%40rl@db.internal/energy', { PGPASSWORD: 'env' })).password(),
    ).toMatchObject({
      password: 'u@rl',
    });
    expect((await settings(TCP, { PGPASSWORD: 'env' })).password()).toMatchObject({ password: 'env' });
    expect((await settings(TCP, { PGPASSFILE: '/nonexistent/pgpass' })).password()).toEqual({
      file: '/nonexistent/pgpass',
      unreadable: 'does not exist',
    });
  });
});

describe('a failure said without the password', () => {
  it('scrubs the URL password, decoded or not, from a driver message that repeats it', () => {
    const url = 'postgresql://energy:s3cr%2Ft@db.internal/energy';
    const failure = stateStoreFailure(
      new Error('password authentication failed: got "s3cr/t" (raw s3cr%2Ft)'),
      readStateUrl(url),
      'to read the journal',
    );
    expect(failure.message).not.toContain('s3cr');
    expect(failure.message).toContain('got "***" (raw ***)');
    expect(failure.message).toContain('postgresql://energy:***@db.internal/energy');
    expect(scrub('password=hunter2x', readStateUrl('postgresql://u@h/d?password=hunter2x'))).toBe('password=***');
  });

  it('names a time limit hit and a session the server ended', () => {
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    expect(stateStoreFailure(timeout, readStateUrl(TCP), '').message).toContain(
      'a statement ran past statement_timeout',
    );
    const ended = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(stateStoreFailure(ended, readStateUrl(TCP), '').message).toContain('the session was ended by the server');
    expect(stateStoreFailure(new Error('Connection terminated unexpectedly'), readStateUrl(TCP), '').message).toContain(
      'the connection to the database was lost',
    );
  });
});
