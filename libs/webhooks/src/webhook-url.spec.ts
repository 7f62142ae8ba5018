import { checkWebhookTarget } from './webhook-url';

const strict = { allowLoopback: false };

describe('webhook URL check', () => {
  it.each([
    ['ftp://example.com/hook', /http or https/],
    ['not a url', /not a valid absolute URL/],
    ['http://user:pass@example.com/', /credentials/],
    ['http://10.0.0.5/hook', /private network/],
    ['http://192.168.1.10/hook', /private network/],
    ['http://127.0.0.1:8080/hook', /loopback/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://[::1]/hook', /loopback/],
    ['http://[::ffff:127.0.0.1]/hook', /loopback/],
    ['http://[fe80::1]/hook', /link-local/],
    ['http://100.64.1.1/hook', /carrier-grade NAT/],
    ['http://0.0.0.0/hook', /unspecified/],
    ['http://2130706433/hook', /loopback/], // 127.0.0.1 written as a number
    ['http://0x7f.1/hook', /loopback/],
  ])('refuses %s', async (url, problem) => {
    const check = await checkWebhookTarget(url, strict);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problem).toMatch(problem);
  });

  it('refuses a host name that resolves to loopback (localhost)', async () => {
    const check = await checkWebhookTarget('http://localhost:3000/hook', strict);
    expect(check).toEqual({ ok: false, problem: expect.stringMatching(/"localhost" resolves to (127\.0\.0\.1|::1), which is a loopback address/) });
  });

  it('refuses a host when any of its addresses is private (no mixed DNS answers)', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const check = await checkWebhookTarget('https://hooks.example.com/x', { allowLoopback: false, resolve });
    expect(check.ok).toBe(false);
  });

  it('accepts public addresses and keeps the checked addresses for the connection', async () => {
    const resolve = async () => [{ address: '93.184.215.14', family: 4 }];
    const check = await checkWebhookTarget('https://hooks.example.com/x?y=1', { allowLoopback: false, resolve });
    expect(check.ok && check.target.addresses).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect(check.ok && check.target.host).toBe('hooks.example.com');
  });

  it('refuses a host that does not resolve', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const check = await checkWebhookTarget('https://nowhere.invalid/', { allowLoopback: false, resolve });
    expect(check).toEqual({ ok: false, problem: 'host "nowhere.invalid" does not resolve' });
  });

  it('allows loopback (and only loopback) when the operator allows it', async () => {
    expect((await checkWebhookTarget('http://127.0.0.1:9/hook', { allowLoopback: true })).ok).toBe(true);
    expect((await checkWebhookTarget('http://localhost:9/hook', { allowLoopback: true })).ok).toBe(true);
    expect((await checkWebhookTarget('http://10.0.0.1/hook', { allowLoopback: true })).ok).toBe(false);
  });

  it('takes only https when asked, but plain http to loopback when loopback is allowed', async () => {
    const resolve = async () => [{ address: '93.184.215.14', family: 4 }];
    expect(await checkWebhookTarget('http://hooks.example.com/x', { allowLoopback: true, httpsOnly: true, resolve })).toEqual({
      ok: false,
      problem: 'must use https (plain http only to a loopback address)',
    });
    expect(await checkWebhookTarget('http://hooks.example.com/x', { allowLoopback: false, httpsOnly: true, resolve })).toEqual({ ok: false, problem: 'must use https' });
    expect((await checkWebhookTarget('https://hooks.example.com/x', { allowLoopback: false, httpsOnly: true, resolve })).ok).toBe(true);
    expect((await checkWebhookTarget('http://127.0.0.1:9/hook', { allowLoopback: true, httpsOnly: true })).ok).toBe(true);
    expect((await checkWebhookTarget('http://127.0.0.1:9/hook', { allowLoopback: false, httpsOnly: true })).ok).toBe(false);
  });
});
