/** The JSON body the bare servers answer with: the size of a real lookup, the same envelope shape. */
export function ceilingBody(bytes: number): Buffer {
  const filler = 'x'.repeat(Math.max(0, Math.max(64, bytes) - 120));
  return Buffer.from(JSON.stringify({ data: { bbl: '1000010001', filler }, meta: { request_id: 'req_0000000000000000', api_version: 'v1' } }));
}
