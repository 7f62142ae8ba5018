import type { Building } from './buildings';
import type { LatentProcess } from './latent';
import type { RecordSink } from './records';
import type { HiddenOutcome } from './outcomes';
import { MONTHLY_RECORDS } from './monthly-records';
import { monthOf, pruneOld, simulationOf, type SimulationOptions, type SimulationResult } from './simulation';

export { QUIRK_PERIOD, QUIRK_SLOTS, type SimulationOptions, type SimulationResult } from './simulation';
export type { SeriousOutcome } from './outcomes';

/**
 * Simulates one building month by month from its latent process and hands every record to the sink.
 * Each month draws from its own stream (seed, building, month), so a month's records do not depend
 * on where the simulation starts or ends. The serious outcomes are drawn beforehand from the hidden
 * condition (outcomes.ts); the simulation writes the records they leave, and fires from the latent shocks.
 */
export function simulateBuilding(
  building: Building,
  latent: LatentProcess,
  options: SimulationOptions,
  sink: RecordSink,
  ids: { base: number; capacity: number },
  outcomes: readonly HiddenOutcome[] = [],
): SimulationResult {
  const sim = simulationOf(building, latent, options, sink, ids, outcomes);
  for (let m = options.firstMonth; m <= options.lastMonth; m++) {
    const mo = monthOf(sim, options.seed, m);
    for (const records of MONTHLY_RECORDS) records(sim, mo);
    if (m % 12 === 0) pruneOld(sim.state, mo.start);
  }
  sim.result.idsUsed = sim.state.idsUsed();
  return sim.result;
}
