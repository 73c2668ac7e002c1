import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, webhookUrlProblems, webhookUrlProblemsResolved } from './url-safety.ts';

const production = { requireHttps: true, allowPrivateHosts: false };
const development = { requireHttps: false, allowPrivateHosts: true };

describe('isForbiddenAddress', () => {
  it('refuses every address that is not global unicast, IPv4 and IPv6 alike', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      'not an address',
    ])
      expect(isForbiddenAddress(address), address).toBe(true);
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isForbiddenAddress(address), address).toBe(false);
  });
});

describe('webhookUrlProblems', () => {
  it('takes only https in production, and refuses credentials, fragments and long URLs everywhere', () => {
    expect(webhookUrlProblems('https://hooks.example.com/x', production)).toEqual([]);
    expect(webhookUrlProblems('http://hooks.example.com/x', production)).toEqual(['must be an https:// URL']);
    expect(webhookUrlProblems('http://127.0.0.1:8080/x', development)).toEqual([]);
    expect(webhookUrlProblems('ftp://hooks.example.com/x', development)).toEqual([
      'must be an http:// or https:// URL',
    ]);
    expect(webhookUrlProblems('https://user:pw@hooks.example.com/', development)[0]).toContain('credentials');
    expect(webhookUrlProblems('https://hooks.example.com/#x', development)).toEqual([
      'must not contain a fragment',
    ]);
    expect(webhookUrlProblems(`https://hooks.example.com/${'a'.repeat(2048)}`, development)[0]).toContain(
      '2048',
    );
    expect(webhookUrlProblems('hooks', development)).toEqual(['must be an absolute URL']);
  });

  it('refuses loopback, private, link-local and metadata literals and localhost in production', () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://[::ffff:7f00:1]/x',
    ])
      expect(webhookUrlProblems(url, production)[0], url).toContain('non-public address');
  });
});

describe('webhookUrlProblemsResolved', () => {
  it('refuses a host name that resolves to a non-public address, or does not resolve', async () => {
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.1.2.3', family: 4 as const },
    ];
    const publicOnly = async () => [{ address: '93.184.215.14', family: 4 as const }];
    expect((await webhookUrlProblemsResolved('https://a.example/x', production, toLoopback))[0]).toContain(
      '127.0.0.1',
    );
    expect((await webhookUrlProblemsResolved('https://a.example/x', production, mixed))[0]).toContain(
      '10.1.2.3',
    );
    expect(await webhookUrlProblemsResolved('https://a.example/x', production, publicOnly)).toEqual([]);
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await webhookUrlProblemsResolved('https://a.example/x', production, failing)).toEqual([
      'has a host name that does not resolve',
    ]);
    // With private hosts allowed nothing is resolved.
    expect(await webhookUrlProblemsResolved('http://a.example/x', development, failing)).toEqual([]);
  });

  it('resolves localhost through the system resolver to loopback and refuses it', async () => {
    const problems = await webhookUrlProblemsResolved('https://localhost/x', production);
    expect(problems[0]).toContain('non-public address');
  });
});
