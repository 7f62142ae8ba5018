import { defineSource } from '../definition';
import { attributes, emit, requireDate } from '../mapping';
import { RowFields } from '../row-fields';
import { headerOf, sodaFieldsFor } from './common';

const OMO_HEADER = headerOf(
  'OMOID,OMONumber,BuildingID,Boro ID,Boro,HouseNumber,StreetName,Apartment,Zip,Block,Lot,LifeCycle,WorkTypeGeneral,OMOStatusReason,OMOAwardAmount,OMOCreateDate,NetChangeOrders,OMOAwardDate,IsAEP,IsCommercialDemolition,ServiceChargeFlag,FEMAEventID,FEMAEvent,OMODescription,Latitude,Longitude,Community Board,Council District,Census Tract,BIN,BBL,NTA',
);
const HWO_HEADER = headerOf(
  'HWOID,HWONumber,BuildingID,BoroID,Boro,HouseNumber,StreetName,Zip,Block,Lot,LifeCycle,WorkTypeGeneral,HWOStatusReason,HWOCreateDate,IsAEP,IsCommercialDemolition,FEMAEventID,FEMAEvent,HWODescription,HWOApprovedAmount,SalesTax,AdminFee,ChargeAmount,DateTransferDoF,Latitude,Longitude,Community Board,Council District,Census Tract,BIN,BBL,NTA',
);

/** A FEMA event id marks disaster repairs (e.g. Hurricane Sandy): evidence, not chronic distress. */
function isDisasterRepair(f: RowFields): boolean {
  const id = f.text('FEMAEventID');
  return id !== null && id !== '0';
}

/**
 * One source with two parts: open market orders (OMO, contractors) and handyman work orders (HWO,
 * HPD staff) are the same kind of fact (emergency repairs charged to the owner), published as two
 * data sets with different columns.
 */
export const hpdEmergencyRepairs = defineSource({
  key: 'hpd_emergency_repairs',
  name: 'Emergency Repair Program charges (OMO and HWO)',
  agency: 'HPD',
  description: 'Emergency repairs HPD made and charged to the owner: amounts, create date, work type, AEP and FEMA flags.',
  cadence: 'daily',
  components: ['deferred_maintenance', 'financial_distress', 'management_quality'],
  produces: { events: ['emergency_repair_omo', 'emergency_repair_hwo'], facts: [] },
  minimumRows: 50_000,
  parts: [
    {
      part: 'omo',
      datasetId: 'mdbu-nrqn',
      fileNames: ['hpd_omo_charges.csv', 'hpd_omo.csv'],
      header: OMO_HEADER,
      sodaFields: sodaFieldsFor(OMO_HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'Boro ID', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('OMOID') || null,
      map: ({ f, event }) => {
        const created = requireDate(f, 'OMOCreateDate');
        if (!created.ok) return created.outcome;
        const amount = f.decimal('OMOAwardAmount');
        const workType = f.text('WorkTypeGeneral');
        return emit([
          event({
            event_type: 'emergency_repair_omo',
            classify_by: [],
            status: null,
            occurred_on: created.date,
            description: `Emergency repair order ${f.text('OMONumber') ?? ''}${workType ? ` (${workType})` : ''}`.trim(),
            scoring_excluded: isDisasterRepair(f),
            attributes: attributes({
              omo_id: f.int('OMOID'),
              omo_number: f.text('OMONumber'),
              amount,
              award_date: f.date('OMOAwardDate'),
              net_change_orders: f.decimal('NetChangeOrders'),
              work_type: workType,
              status_reason: f.text('OMOStatusReason'),
              apartment: f.text('Apartment'),
              // the owner was charged the service charge on top of the repair
              service_charge: f.bool('ServiceChargeFlag'),
              is_aep: f.text('IsAEP') ? true : null,
              commercial_demolition: f.text('IsCommercialDemolition'),
              fema_event_id: f.text('FEMAEventID'),
              fema_event: f.text('FEMAEvent'),
              work_description: f.text('OMODescription'),
              building_id: f.int('BuildingID'),
            }),
          }),
        ]);
      },
    },
    {
      part: 'hwo',
      datasetId: 'sbnd-xujn',
      fileNames: ['hpd_hwo_charges.csv', 'hpd_hwo.csv'],
      header: HWO_HEADER,
      sodaFields: sodaFieldsFor(HWO_HEADER),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'BoroID', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('HWOID') || null,
      map: ({ f, event }) => {
        const created = requireDate(f, 'HWOCreateDate');
        if (!created.ok) return created.outcome;
        const workType = f.text('WorkTypeGeneral');
        return emit([
          event({
            event_type: 'emergency_repair_hwo',
            classify_by: [],
            status: null,
            occurred_on: created.date,
            description: `Handyman work order ${f.text('HWONumber') ?? ''}${workType ? ` (${workType})` : ''}`.trim(),
            scoring_excluded: isDisasterRepair(f),
            attributes: attributes({
              hwo_id: f.int('HWOID'),
              hwo_number: f.text('HWONumber'),
              amount: f.decimal('ChargeAmount'),
              approved_amount: f.decimal('HWOApprovedAmount'),
              sales_tax: f.decimal('SalesTax'),
              admin_fee: f.decimal('AdminFee'),
              transferred_to_dof: f.date('DateTransferDoF'),
              work_type: workType,
              status_reason: f.text('HWOStatusReason'),
              is_aep: f.text('IsAEP') ? true : null,
              commercial_demolition: f.text('IsCommercialDemolition'),
              fema_event_id: f.text('FEMAEventID'),
              fema_event: f.text('FEMAEvent'),
              work_description: f.text('HWODescription'),
              building_id: f.int('BuildingID'),
            }),
          }),
        ]);
      },
    },
  ],
});
