import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './webhooks';

// a Standard Webhooks secret of this test: whsec_ + base64 of 32 bytes
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const BODY = '{"type":"grade.changed","data":{"bbl":"1000010001","from":"B","to":"C"}}';

function signed(at = new Date()) {
  return {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SECRET).sign('msg_1', at, BODY),
  };
}

describe('verifyWebhook', () => {
  it('returns the payload of a delivery signed with the secret, from Node headers or fetch Headers, string or bytes', () => {
    expect(verifyWebhook(SECRET, BODY, signed())).toEqual(JSON.parse(BODY));
    expect(verifyWebhook(SECRET, new TextEncoder().encode(BODY), new Headers(signed()))).toEqual(JSON.parse(BODY));
    expect(verifyWebhook(SECRET, BODY, { ...signed(), 'webhook-id': ['msg_1'] })).toEqual(JSON.parse(BODY));
  });

  it('refuses a changed body, another secret, a missing header and an old timestamp with WebhookVerificationError', () => {
    const headers = signed();
    expect(() => verifyWebhook(SECRET, BODY.replace('"C"', '"D"'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`, BODY, headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(SECRET, BODY, { 'webhook-id': 'msg_1', 'webhook-timestamp': headers['webhook-timestamp'] })).toThrow(/webhook-signature/);
    expect(() => verifyWebhook(SECRET, BODY, signed(new Date(Date.now() - 10 * 60_000)))).toThrow(WebhookVerificationError);
  });
});
