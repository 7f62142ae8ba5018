import fc from 'fast-check';
import { MIN_PEER_GROUP_SIZE, buildPeerDistribution, healthScoreFromDistribution, healthScoresByPeerGroup, peerDistributionFromSorted } from './health-score';

describe('health score', () => {
  const group = 'large_pre-war_walkup';

  it('is 100 for the healthiest and falls with the total inside a peer group', () => {
    const totals = Array.from({ length: 100 }, (_, i) => i);
    const health = healthScoresByPeerGroup({ [group]: totals })[group];
    expect(health[0]).toBe(100);
    expect(health[99]).toBe(1);
    for (let i = 1; i < health.length; i++) expect(health[i]).toBeLessThanOrEqual(health[i - 1]);
  });

  it('gives ties the same score, and 100 to every building tied at the best total', () => {
    const totals = [...Array(60).fill(0), ...Array(40).fill(50)];
    const health = healthScoresByPeerGroup({ [group]: totals })[group];
    expect(new Set(health.slice(0, 60))).toEqual(new Set([100]));
    expect(new Set(health.slice(60))).toEqual(new Set([40]));
  });

  it('falls back to the size band, then the whole run, for small peer groups', () => {
    const small = Array(5).fill(10);
    const band = Array(MIN_PEER_GROUP_SIZE).fill(90);
    const health = healthScoresByPeerGroup({ 'large_modern_condo': small, [group]: band })['large_modern_condo'];
    // Against the size band (35 buildings): every one has a total >= 10.
    expect(health).toEqual(Array(5).fill(100));
  });

  it('gives the same result from a precomputed sorted distribution (incremental runs)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 100 }), (totals, probe) => {
        const full = buildPeerDistribution({ [group]: totals });
        const sorted = peerDistributionFromSorted(new Map([[group, Float64Array.from(totals).sort()]]));
        expect(healthScoreFromDistribution(sorted, group, probe)).toBe(healthScoreFromDistribution(full, group, probe));
        const h = healthScoreFromDistribution(full, group, probe);
        expect(h).toBeGreaterThanOrEqual(0);
        expect(h).toBeLessThanOrEqual(100);
      }),
    );
  });
});
