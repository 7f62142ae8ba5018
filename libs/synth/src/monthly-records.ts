import type { Building } from './buildings';
import {
  DOB_COMPLAINT_CATEGORIES, DOB_VIOLATION_TYPES, ECB_INFRACTIONS, HEAT_PROBLEMS, HOT_WATER_PROBLEM, JOB_DESCRIPTIONS,
  OTHER_311, OTHER_PROBLEMS, REPAIR_WORK, VIOLATION_CODES,
  type ComplaintProblem, type ViolationCode,
} from './catalog';
import { pickApartment } from './apartments';
import { dayOf, ymdOf } from './dates';
import { FIRST_NAMES, MARSHALS, SURNAMES } from './names';
import { hashInts, type Rng } from './rng';
import { NEVER, type HpdProblem, type RecordSink } from './records';
import type { HiddenOutcome } from './outcomes';
import { SHOCK_VACATE } from './shock-vacates';
import { addViolation, BuildingState, closeDayFor, CODES_BY_CATEGORY, hpdEnforcesAt, type Month, type Simulation, weightedCode } from './simulation';

// The records one month of a building writes, one function per kind (history.ts runs them in order).

const FEMA_FROM = dayOf(2012, 10, 29);

const FEMA_TO = dayOf(2013, 6, 30);

/** Every kind of record a month can write, in the order the month's stream draws them. */
export const MONTHLY_RECORDS: readonly ((sim: Simulation, mo: Month) => void)[] = [
  hpdComplaints,
  inspectionSweeps,
  otherAgencies311,
  dobComplaints,
  dobViolations,
  ecbViolations,
  dobSafetyViolations,
  jobFilings,
  emergencyRepairs,
  litigations,
  evictions,
  rodentInspections,
  vacatesFromShocks,
  hiddenOutcomeRecords,
  yearlyPrograms,
];

/**
 * HPD complaints, one row per problem, with the matching 311 request for most problems; the violations their inspections find.
 * At public housing tenants still call 311, but HPD takes no complaint and inspects nothing: 311 refers the request to NYCHA.
 */
function hpdComplaints(sim: Simulation, mo: Month): void {
  const { rng, L, f, heat, dayIn } = mo;
  const { building, state, sink, tenantUnits, bins } = sim;
  const hpd = !building.publicHousing;
  const complaintMean = (0.34 * tenantUnits * f * Math.sqrt(building.reporting) * (heat ? 1.25 : 0.65)) / 12;
  const complaints = rng.poisson(complaintMean);
  for (let c = 0; c < complaints; c++) {
    const day = dayIn();
    const apt = pickApartment(rng, building);
    const problemCount = Math.min(6, 1 + rng.geometric(0.55));
    const problems: HpdProblem[] = [];
    const heatFirst = building.units >= 2 && rng.chance(heat ? 0.42 : 0.05);
    let closeDay = day + (heatFirst ? rng.int(1, 6) : rng.int(3, 50));
    for (let p = 0; p < problemCount; p++) {
      const problem: ComplaintProblem = p === 0 && heatFirst ? (heat ? weightedCode(rng, HEAT_PROBLEMS) : HOT_WATER_PROBLEM) : weightedCode(rng, OTHER_PROBLEMS);
      const u = rng.float();
      const outcome: HpdProblem['outcome'] =
        problem.major === 'HEAT/HOT WATER' ? (u < 0.12 + L * 0.35 ? 'violation' : 'corrected') : u < 0.13 ? 'no_access' : u < 0.25 + L * 0.5 ? 'violation' : 'no_violation';
      const uniqueKey = state.next('sr');
      problems.push({ problemId: state.next('problem'), uniqueKey, problem, outcome });
      if (outcome === 'violation' && hpd) {
        const candidates = CODES_BY_CATEGORY.get(problem.major) ?? VIOLATION_CODES;
        const inspection = day + rng.int(1, 12);
        const count = 1 + rng.poisson(0.3 + L);
        for (let v = 0; v < count; v++) addViolation(sim, mo, inspection, weightedCode(rng, candidates), apt.apartment, apt.story, apt.unit);
        closeDay = Math.max(closeDay, inspection + rng.int(0, 5));
      }
      if (rng.chance(0.62)) {
        const second = rng.int(0, 86399);
        sink.nyc311({
          day, uniqueKey, second, agency: 'HPD', agencyName: 'Department of Housing Preservation and Development',
          complaintType: problem.nyc311Type, descriptor: problem.nyc311Descriptor, closeDay, closeSecond: rng.int(0, 86399),
          channel: rng.pick(['PHONE', 'ONLINE', 'MOBILE', 'PHONE']), resolution: hpd ? outcome : 'referred_to_nycha',
          bblMode: sim.pending.borough0 ? 'borough0' : rng.chance(0.004) ? 'blank' : 'normal',
        });
        sim.pending.borough0 = false;
      }
    }
    if (hpd) sink.hpdComplaint({ day, complaintId: state.next('complaint'), binIndex: rng.int(0, bins - 1), apartment: heatFirst && rng.chance(0.4) ? 'BLDG' : apt.apartment, anonymous: rng.chance(0.2), problems, closeDay });
  }
}

/** Inspections not triggered by a single complaint (building-wide sweeps, re-inspections). */
function inspectionSweeps(sim: Simulation, mo: Month): void {
  const { rng, L, f, dayIn } = mo;
  const { building, scaledUnits } = sim;
  if (hpdEnforcesAt(building)) {
    const sweeps = rng.poisson((0.02 * scaledUnits * f * building.inspection) / 12 / 3);
    for (let s = 0; s < sweeps; s++) {
      const day = dayIn();
      const count = 1 + rng.poisson(1.5 + 5 * L);
      for (let v = 0; v < count; v++) {
        const apt = pickApartment(rng, building);
        addViolation(sim, mo, day, weightedCode(rng, VIOLATION_CODES), apt.apartment, apt.story, apt.unit);
      }
    }
  }
}

/** 311 requests to other agencies. */
function otherAgencies311(sim: Simulation, mo: Month): void {
  const { rng, f, dayIn } = mo;
  const { building, state, sink, tenantUnits } = sim;
  const other311 = rng.poisson((0.05 * tenantUnits * f * building.reporting) / 12);
  for (let k = 0; k < other311; k++) {
    const [agency, agencyName, type, descriptor] = rng.weighted(OTHER_311.map((row) => [row, row[4]] as const));
    const day = dayIn();
    sink.nyc311({
      day, uniqueKey: state.next('sr'), second: rng.int(0, 86399), agency, agencyName, complaintType: type, descriptor,
      closeDay: day + rng.int(0, 40), closeSecond: rng.int(0, 86399), channel: rng.pick(['PHONE', 'ONLINE', 'MOBILE']),
      resolution: 'other', bblMode: sim.pending.borough0 ? 'borough0' : rng.chance(0.004) ? 'blank' : 'normal',
    });
    sim.pending.borough0 = false;
  }
}

/** DOB complaints (by BIN only), and the vacates of illegal conversions some of them find. */
function dobComplaints(sim: Simulation, mo: Month): void {
  const { rng, L, f, dayIn } = mo;
  const { building, state, sink, units, bins } = sim;
  const dobComplaints = rng.poisson(((0.05 + 0.012 * Math.pow(units, 0.8)) * f) / 12);
  for (let k = 0; k < dobComplaints; k++) {
    const day = dayIn();
    const [category] = rng.weighted(DOB_COMPLAINT_CATEGORIES.map((row) => [row, row[2]] as const));
    const inspectionDay = day + rng.int(1, 60);
    const closeDay = rng.chance(0.9) ? inspectionDay + rng.int(0, 3) : NEVER;
    sink.dobComplaint({
      day, number: state.next('dobcomplaint'), binIndex: rng.int(0, bins - 1), category,
      unit: rng.pick([building.borough.abbrev === 'QN' ? 'QNS.' : building.borough.abbrev === 'MN' ? 'MAN.' : building.borough.abbrev === 'BK' ? 'BKLYN' : building.borough.abbrev === 'BX' ? 'BRONX' : 'STATN', 'SCFLD', 'BEST ', 'ELEVR']),
      closeDay, inspectionDay, dispositionCode: rng.pick(['A8', 'I1', 'L3', 'C1', 'I2', 'A1', 'K1']), placeholderBin: sim.pending.placeholder,
    });
    sim.pending.placeholder = false;
    if (category === '45' && building.units <= 5 && rng.chance(0.04 + L * 0.1)) {
      sink.dobVacate({ day: inspectionDay, category: 'ILLEGAL CONVERSION', full: rng.chance(0.2), dayFirst: hashInts(building.index, inspectionDay) % 6 === 0 });
    }
  }
}

/** DOB (BIS) violations, by the devices and duties a building of this size has. */
function dobViolations(sim: Simulation, mo: Month): void {
  const { rng, L, f, dayIn } = mo;
  const { building, state, sink, bins } = sim;
  const dobTypes: number[] = [];
  if (building.stories >= 6) dobTypes.push(0);
  if (building.units >= 6) dobTypes.push(1, 2);
  if (building.stories >= 7) dobTypes.push(3);
  dobTypes.push(6);
  const dobViolations = rng.poisson(((0.04 + 0.06 * dobTypes.length) * f) / 12);
  for (let k = 0; k < dobViolations; k++) {
    const [typeCode, typeLabel] = DOB_VIOLATION_TYPES[rng.pick(dobTypes)];
    const day = dayIn();
    const serial = state.next('dobviolation');
    const closeDay = closeDayFor(rng, day, 'B', L);
    sink.dobViolation({
      day, isn: serial, binIndex: rng.int(0, bins - 1), typeCode, typeLabel,
      number: typeCode === 'E' ? `${rng.int(9000, 9999)}/${rng.int(100000, 299999)}` : String(serial % 100000).padStart(5, '0'),
      deviceNumber: typeCode === 'E' ? `0${rng.int(1, 9)}P${rng.int(10000, 99999)}` : typeCode.startsWith('L') ? String(rng.int(100000, 999999)).padStart(8, '0') : '',
      description: typeCode === 'E' ? 'VIO ISSUED TO ELEVATOR - FAIL TO FILE ANNUAL INSPECTION' : typeCode === 'LL1080' ? 'FAILURE TO FILE FACADE INSPECTION REPORT' : typeCode === 'C' ? 'WORK WITHOUT A PERMIT' : '',
      ecbNumber: rng.chance(0.3) ? `3${rng.int(4000000, 9999999)}${String.fromCharCode(65 + rng.int(0, 25))}` : '',
      closeDay, dismissed: rng.chance(0.15),
    });
  }
}

/** ECB violations, their hearings and penalties. */
function ecbViolations(sim: Simulation, mo: Month): void {
  const { rng, L, f, year, dayIn } = mo;
  const { state, sink, units, bins } = sim;
  const ecbCount = rng.poisson(((0.03 + 0.004 * Math.pow(units, 0.8)) * f) / 12);
  for (let k = 0; k < ecbCount; k++) {
    const day = dayIn();
    const [infractionCode, section, description, violationType] = rng.pick(ECB_INFRACTIONS);
    const penalty = rng.pick([0, 250, 500, 800, 1000, 1250, 2500, 4000, 5000, 10000]);
    const hearingDay = day + rng.int(30, 90);
    const pays = rng.chance(0.85 - L * 0.5);
    const paidDay = pays ? hearingDay + rng.int(10, 400) : NEVER;
    sink.ecbViolation({
      day, isn: state.next('ecb'), ecbNumber: `3${String(rng.int(4000000, 9999999))}${String.fromCharCode(65 + rng.int(0, 25))}`,
      dobNumber: `${String(ymdOf(day).month).padStart(2, '0')}${String(ymdOf(day).day).padStart(2, '0')}${String(year % 100).padStart(2, '0')}${rng.pick(['C', 'E', 'B', 'K'])}${rng.int(1000, 9999)}${rng.pick(['A', 'B', 'X', ''])}${rng.int(1, 9)}`,
      binIndex: rng.int(0, bins - 1), hearingDay,
      severity: year >= 2017 ? rng.pick(['CLASS - 1', 'CLASS - 2', 'CLASS - 2', 'CLASS - 3']) : rng.weighted([['Hazardous', 0.3 + L * 0.4], ['Non-Hazardous', 0.5], ['Unknown', 0.2]] as const),
      violationType, infractionCode, section, description, penalty, paidDay, partialPaid: pays ? 0 : Math.round(penalty * rng.float() * 0.3),
      resolveDay: pays ? paidDay : rng.chance(0.5) ? hearingDay + rng.int(30, 900) : NEVER,
      hearingStatus: rng.pick(['DEFAULT', 'IN VIOLATION', 'CURED/IN-VIO', 'DISMISSED', 'PAID IN FULL']),
      fiveDigitLot: rng.chance(0.12),
    });
  }
}

/** DOB NOW safety violations (boilers, elevators), from 2006. */
function dobSafetyViolations(sim: Simulation, mo: Month): void {
  const { rng, f, year, dayIn } = mo;
  const { building, sink, bins } = sim;
  if (year >= 2006 && (building.units >= 6 || building.stories >= 6)) {
    const safety = rng.poisson((0.07 * f) / 12);
    for (let k = 0; k < safety; k++) {
      const day = dayIn();
      const boiler = building.stories < 6 || rng.chance(0.6);
      const type = boiler ? rng.pick(['LL6291', 'LBLVIO']) : rng.pick(['FTC-VT-CAT1-CO', 'FTC-VT-CAT1-HA', 'FTF-VT-PER']);
      const { month, day: dom } = ymdOf(day);
      sink.dobSafetyViolation({
        day, binIndex: rng.int(0, bins - 1),
        number: `${String(month).padStart(2, '0')}${String(dom).padStart(2, '0')}${String(year % 100).padStart(2, '0')}${type.replace(/-/g, '')}${rng.int(10000, 99999)}`,
        type, remarks: boiler ? `VIOLATION ISSUED FOR FAILURE TO FILE ${year - 1} BOILER INSPECTION REPORT` : `Violation Issued-Failure To File ${year - 1} Category 1 Elevator Test`,
        deviceNumber: boiler ? `${building.borough.code}0000${rng.int(100000, 999999)}${rng.pick(['Y', 'N'])}0001` : `${building.borough.code}P${rng.int(10000, 99999)}`,
        deviceType: boiler ? 'Boiler' : 'Elevator', cycleEndDay: dayOf(year - 1, 12, 31), dismissDay: rng.chance(0.4) ? day + rng.int(30, 700) : NEVER,
      });
    }
  }
}

/** Job filings: reinvestment, more in improving buildings. */
function jobFilings(sim: Simulation, mo: Month): void {
  const { rng, L, year, dayIn } = mo;
  const { latent, state, sink, units, bins, rateScale } = sim;
  const reinvest = latent.trajectory === 'improving' ? 3 : latent.trajectory === 'declining' ? 0.5 : 1;
  const jobs = rng.poisson(((0.04 + 0.005 * Math.pow(units, 0.7)) * reinvest * Math.max(0.2, 1.2 - L) * rateScale) / 12);
  for (let k = 0; k < jobs; k++) {
    const day = dayIn();
    const dobNowShare = year < 2018 ? 0 : year < 2021 ? 0.4 : 0.9;
    const permitDay = day + rng.int(2, 120);
    sink.jobFiling({
      day, jobNumber: state.next('job'), binIndex: rng.int(0, bins - 1), jobType: rng.weighted([['A2', 6], ['A3', 3], ['A1', 1]] as const),
      initialCost: Math.round(rng.logNormal(30000, 1.2) * Math.sqrt(units)), description: rng.pick(JOB_DESCRIPTIONS),
      permitDay, signoffDay: rng.chance(0.7) ? permitDay + rng.int(30, 500) : NEVER,
      applicantFirst: rng.pick(FIRST_NAMES), applicantLast: rng.pick(SURNAMES), license: String(rng.int(10000, 99999)).padStart(6, '0'),
      dobNow: rng.chance(dobNowShare),
    });
  }
}

/** HPD emergency repairs (OMO and handyman work orders), and the repairs after Hurricane Sandy. */
function emergencyRepairs(sim: Simulation, mo: Month): void {
  const { rng, start, f, year, dayIn } = mo;
  const { building, state, sink, units, bins } = sim;
  if (hpdEnforcesAt(building)) {
    const repairs = rng.poisson((0.012 * Math.pow(units, 0.75) * Math.pow(f, 1.6)) / 12);
    const disaster = start >= FEMA_FROM && start <= FEMA_TO && building.zone.index % 5 === 0;
    const femaRepairs = disaster ? rng.poisson(0.08 * Math.sqrt(units)) : 0;
    for (let k = 0; k < repairs + femaRepairs; k++) {
      const day = dayIn();
      const fema = k >= repairs;
      const hwo = rng.chance(0.3);
      const [workType, description] = rng.pick(REPAIR_WORK);
      const amount = Math.round((hwo ? rng.logNormal(300, 0.9) : rng.logNormal(1800, 1.1)) * 100) / 100;
      const apt = pickApartment(rng, building);
      const id = state.next('repair');
      sink.emergencyRepair({
        day, id, number: `E${String.fromCharCode(65 + ((year - 2000) % 26))}${String(id % 100000).padStart(5, '0')}`, kind: hwo ? 'HWO' : 'OMO',
        binIndex: rng.int(0, bins - 1), apartment: rng.chance(0.6) ? apt.apartment : '', workType, description, amount,
        awardDay: day + rng.int(0, 60), isAep: state.aepUntil >= day, femaEventId: fema ? '4085' : '', femaEvent: fema ? 'Hurricane Sandy' : '',
      });
      if (!fema) state.repairs.push({ day, amount });
    }
  }
}

/** HPD litigations. */
function litigations(sim: Simulation, mo: Month): void {
  const { rng, L, f, heat, dayIn } = mo;
  const { building, state, sink, units } = sim;
  if (hpdEnforcesAt(building) && building.units >= 3) {
    const cases = rng.poisson((0.004 * Math.pow(units, 0.6) * Math.pow(f, 1.5)) / 12);
    for (let k = 0; k < cases; k++) {
      const day = dayIn();
      const caseType = heat && rng.chance(0.5) ? 'Heat and Hot Water' : rng.weighted([['Tenant Action', 5], ['Comprehensive', 2], ['Access Warrant - Non-Lead', 2], ['Tenant Action/Harrassment', 1], ['False Certification Non-Lead', 1]] as const);
      const harassment = caseType === 'Tenant Action/Harrassment' && rng.chance(0.3);
      sink.litigation({
        day, id: state.next('litigation'), caseType, closeDay: rng.chance(0.9) ? day + rng.int(20, 500) : NEVER, harassment,
        penalty: harassment ? rng.pick([1000, 5000, 10000]) : 0, openJudgement: rng.chance(0.05 + L * 0.1),
      });
    }
  }
}

/** Executed evictions (published from 2017). */
function evictions(sim: Simulation, mo: Month): void {
  const { rng, f, year, dayIn } = mo;
  const { building, state, sink, units } = sim;
  if (year >= 2017 && building.units >= 2) {
    const evictions = rng.poisson((0.004 * units * Math.pow(f, 0.7)) / 12);
    for (let k = 0; k < evictions; k++) {
      const day = dayIn();
      const apt = pickApartment(rng, building);
      const serial = state.next('eviction');
      sink.eviction({
        day, courtIndex: `${rng.int(300000, 339999)}/${String(year % 100 - rng.int(0, 2)).padStart(2, '0')}${rng.pick(['', '', 'K', 'B'])}`,
        docket: String(serial % 1000000).padStart(6, '0'), apartment: apt.apartment, marshal: rng.pick(MARSHALS), possession: rng.chance(0.8),
      });
    }
  }
}

/** DOHMH rodent inspections, and the compliance inspection after a failed one. */
function rodentInspections(sim: Simulation, mo: Month): void {
  const { rng, L, f, dayIn } = mo;
  const { state, sink, units, rateScale } = sim;
  const rodents = rng.poisson(((0.01 + 0.004 * Math.sqrt(units)) * f * rateScale) / 12);
  for (let k = 0; k < rodents; k++) {
    const day = dayIn();
    const ticket = state.next('rodent');
    const result1 = rng.weighted([['Passed', 1.2 - L], ['Failed for Rat Activity', 0.2 + L], ['Failed for Other Reason', 0.15]] as const);
    const second = rng.int(7 * 3600, 17 * 3600);
    sink.rodentInspection({ day, ticket, jobId: `PC${7000000 + (ticket % 3000000)}`, type: 'Initial', result: result1, second, approvedSecond: rng.int(8 * 3600, 16 * 3600), withBbl: rng.chance(0.4), zeroCoordinates: rng.chance(0.03) });
    if (result1 !== 'Passed') {
      const again = day + rng.int(20, 60);
      sink.rodentInspection({ day: again, ticket: state.next('rodent'), jobId: `PC${7000000 + (ticket % 3000000)}`, type: 'Compliance', result: rng.chance(0.6) ? 'Passed' : 'Failed for Rat Activity', second: rng.int(7 * 3600, 17 * 3600), approvedSecond: rng.int(8 * 3600, 16 * 3600), withBbl: rng.chance(0.4), zeroCoordinates: false });
    }
  }
}

/** Vacates: fires from the latent shocks, and habitability / illegal occupancy. */
function vacatesFromShocks(sim: Simulation, mo: Month): void {
  const { rng, start, dim } = mo;
  const { building, latent, state, sink, result, units, bins } = sim;
  for (const shock of latent.shocks) {
    if (shock.day < start || shock.day >= start + dim) continue;
    if (shock.fire && building.units >= 1 && rng.chance(SHOCK_VACATE.fire)) {
      const entire = rng.chance(0.3);
      // HPD orders no vacate at public housing; FDNY still may
      if (!building.publicHousing) {
        sink.hpdVacate({ day: shock.day, orderNumber: state.next('vacate'), reason: 'Fire Damage', entire, units: entire ? building.units : rng.int(1, Math.max(1, Math.ceil(units / 4))), rescindDay: rng.chance(0.75) ? shock.day + rng.int(20, 700) : NEVER, binIndex: rng.int(0, bins - 1) });
        result.serious.push({ day: shock.day, outcome: 'hpd_vacate' });
      }
      if (building.units >= 6 && rng.chance(SHOCK_VACATE.fdnyAfterFire)) {
        sink.fdnyVacate({ day: shock.day, description: rng.pick(['FIRE - STRUCTURAL DAMAGE', 'FIRE - NO HEAT OR LIGHT', 'FIRE - UNSAFE CONDITIONS']), statusChangeDay: rng.chance(0.7) ? shock.day + rng.int(10, 300) : NEVER, binIndex: rng.int(0, bins - 1) });
        result.serious.push({ day: shock.day, outcome: 'fdny_vacate' });
      }
    } else if (!shock.fire && shock.size > SHOCK_VACATE.structuralSize && rng.chance(SHOCK_VACATE.structural)) {
      sink.dobVacate({ day: shock.day, category: rng.pick(['BUILDING SHAKING/VIBRATING/STRUCTURAL STABILITY AFFECTED', 'STRUCTURAL STABILITY IMPACTED - NEW BUILDING UNDER CONSTRUCTION', 'EGRESS - LOCKED/BLOCKED/IMPROPER/NO SECONDARY MEANS']), full: rng.chance(0.4), dayFirst: hashInts(building.index, shock.day) % 6 === 0 });
      result.serious.push({ day: shock.day, outcome: 'dob_vacate' });
    }
  }
}

/** The records left by this month's hidden serious outcomes. */
function hiddenOutcomeRecords(sim: Simulation, mo: Month): void {
  const { rng, start, dim } = mo;
  const { building, state, sink, outcomes } = sim;
  while (sim.nextOutcome < outcomes.length && outcomes[sim.nextOutcome].day < start + dim) {
    const hidden = outcomes[sim.nextOutcome++];
    if (hidden.day < start) continue;
    writeOutcomeRecords(rng, building, state, hidden, mo.classC, sink, (day, code, apt) => addViolation(sim, mo, day, code, apt.apartment, apt.story, apt.unit));
  }
}

/** Yearly programs: tax liens, bedbug filings and facade cycles in January, registrations every September. */
function yearlyPrograms(sim: Simulation, mo: Month): void {
  const { rng, L, year, monthOfYear, dayIn } = mo;
  const { building, state, sink, result } = sim;
  if (monthOfYear === 1) {
    yearlyTaxLien(rng, building, L, year, sink);
    yearlyBedbugs(rng, building, L, year, sink);
    yearlyFacade(rng, building, state, L, year, sink);
  }
  if (monthOfYear === 9 && hpdEnforcesAt(building)) {
    // registrations are due every September (public housing does not register); neglectful owners let them lapse
    const lapse = L > 0.55 && building.owner.badness > 0.4 && rng.chance(0.6);
    if (!lapse || state.lastRegistration < 0) {
      const day = dayIn();
      state.lastRegistration = day;
      result.registrationDays.push(day);
    }
  }
}

const CLASS_C_CODES = VIOLATION_CODES.filter((code) => code.cls === 'C');

/** The public records a hidden serious outcome leaves in the month it happens. */
function writeOutcomeRecords(
  rng: Rng,
  building: Building,
  state: BuildingState,
  hidden: HiddenOutcome,
  classCSoFar: number,
  sink: RecordSink,
  addViolation: (day: number, code: ViolationCode, apt: { apartment: string; story: string; unit: number }) => void,
): void {
  const { day } = hidden;
  const units = Math.max(1, building.units);
  switch (hidden.outcome) {
    case 'hpd_vacate': {
      const reason = building.units <= 5 && rng.chance(0.7) ? 'Illegal Occupancy' : 'Habitability';
      sink.hpdVacate({ day, orderNumber: state.next('vacate'), reason, entire: rng.chance(0.25), units: rng.int(1, Math.min(4, units)), rescindDay: rng.chance(0.5) ? day + rng.int(30, 900) : NEVER, binIndex: rng.int(0, building.bins.length - 1) });
      break;
    }
    case 'class_c_spike': {
      const burst = Math.max(0, Math.max(3, Math.ceil(units * 0.15)) - classCSoFar);
      for (let v = 0; v < burst; v++) addViolation(day, rng.pick(CLASS_C_CODES), pickApartment(rng, building));
      break;
    }
    case 'emergency_repair': {
      const [workType, description] = rng.pick(REPAIR_WORK);
      const id = state.next('repair');
      const amount = Math.round((1000 + rng.logNormal(2500, 0.8)) * 100) / 100;
      const apt = pickApartment(rng, building);
      sink.emergencyRepair({
        day, id, number: `E${String.fromCharCode(65 + ((ymdOf(day).year - 2000) % 26))}${String(id % 100000).padStart(5, '0')}`, kind: 'OMO',
        binIndex: rng.int(0, building.bins.length - 1), apartment: rng.chance(0.6) ? apt.apartment : '', workType, description, amount,
        awardDay: day + rng.int(0, 60), isAep: state.aepUntil >= day, femaEventId: '', femaEvent: '',
      });
      state.repairs.push({ day, amount });
      break;
    }
    case 'aep_entry': {
      let open = 0;
      for (const v of state.bc) if (v.day <= day && v.closeDay > day) open++;
      const dischargeDay = rng.chance(0.75) ? day + rng.int(120, 900) : NEVER;
      state.aepUntil = dischargeDay;
      sink.aepEntry({ day, round: ymdOf(day).year - 2007, violationsAtStart: open, dischargeDay });
      break;
    }
    case 'ucp_order': {
      const dischargeDay = rng.chance(0.7) ? day + rng.int(90, 600) : NEVER;
      sink.ucpOrder({ day, dischargeDay, garbledYear: hashInts(building.index, day) % 6 === 0 });
      break;
    }
    default:
      break;
  }
}

/** DOF tax lien sale list: notices at 90, 60, 30 and 10 days before the spring sale, while the debt is unpaid (never on public housing, a tax-exempt public property). */
function yearlyTaxLien(rng: Rng, building: Building, latent: number, year: number, sink: RecordSink): void {
  if (year < 2017 || building.publicHousing) return;
  const pressure = latent * 0.8 + Math.max(0, building.owner.badness) * 0.25;
  if (!rng.chance(Math.max(0, pressure - 0.25) * 0.35 + 0.004)) return;
  const waterDebtOnly = rng.chance(0.25);
  const cycles: readonly (readonly [string, number])[] = [['90 Day Notice', 3], ['60 Day Notice', 4], ['30 Day Notice', 5], ['10 Day Notice', 6]];
  for (const [cycle, month] of cycles) {
    sink.taxLien({ day: dayOf(year, month, 1), cycle, waterDebtOnly });
    if (!rng.chance(0.75)) break; // paid, off the list
  }
}

/** Bedbug annual filing with HPD (from 2018), filed in December for the year ending November 30; public housing files none. */
function yearlyBedbugs(rng: Rng, building: Building, latent: number, year: number, sink: RecordSink): void {
  if (year < 2018 || building.units < 3 || !hpdEnforcesAt(building)) return;
  const p = 0.002 + latent * latent * 0.04;
  let infested = 0;
  for (let u = 0; u < Math.min(building.units, 400); u++) if (rng.float() < p) infested++;
  if (building.units > 400) infested = Math.round((infested * building.units) / 400);
  const eradicated = Math.round(infested * (0.5 + rng.float() * 0.5));
  sink.bedbugFiling({
    day: dayOf(year, 12, rng.int(1, 28)), infested, eradicated, reinfested: Math.round(eradicated * rng.float() * 0.3),
    periodStart: dayOf(year - 1, 12, 1), periodEnd: dayOf(year, 11, 30),
  });
}

/** Facade inspections (FISP) for buildings over six stories: one filing per 5-year cycle. */
function yearlyFacade(rng: Rng, building: Building, state: BuildingState, latent: number, year: number, sink: RecordSink): void {
  if (building.stories <= 6 || year < 2005) return;
  const cycle = 7 + Math.floor((year - 2005) / 5);
  if ((year - 2005) % 5 !== (building.index % 5)) return; // each building files in one year of the cycle
  const day = dayOf(year, rng.int(1, 12), rng.int(1, 28));
  const status = rng.chance(0.02 + latent * 0.1) ? 'No Report Filed' : latent < 0.3 ? rng.weighted([['SAFE', 8], ['SWARMP', 2]] as const) : latent < 0.6 ? rng.weighted([['SAFE', 3], ['SWARMP', 5], ['UNSAFE', 1]] as const) : rng.weighted([['SWARMP', 3], ['UNSAFE', 4]] as const);
  const control = state.next('facade');
  sink.facadeFiling({
    day, tr6: `TR6-${control}-${cycle}${'ABC'[building.block % 3]}-I1`, controlNumber: control, cycle,
    binIndex: rng.int(0, building.bins.length - 1), status, correctedDay: status === 'UNSAFE' && rng.chance(0.6) ? day + rng.int(60, 700) : NEVER,
  });
}
