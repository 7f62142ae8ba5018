import { ComponentKey } from '@bhis/domain';
import { FITTED_MODEL } from '../fitted-model';
import { ComponentModel } from '../signals';
import { BUILDING_SAFETY } from './building-safety';
import { COMPLAINT_BURDEN } from './complaint-burden';
import { DEFERRED_MAINTENANCE } from './deferred-maintenance';
import { FINANCIAL_DISTRESS } from './financial-distress';
import { LEGAL_ENFORCEMENT } from './legal-enforcement';
import { LIVING_CONDITIONS } from './living-conditions';
import { MANAGEMENT_QUALITY } from './management-quality';

/** The seven components, in COMPONENT_KEYS order. */
export const COMPONENT_MODELS: readonly ComponentModel[] = [
  LIVING_CONDITIONS,
  BUILDING_SAFETY,
  COMPLAINT_BURDEN,
  MANAGEMENT_QUALITY,
  FINANCIAL_DISTRESS,
  DEFERRED_MAINTENANCE,
  LEGAL_ENFORCEMENT,
];

/** The weight of each component in the total (fitted, fitted-constants.ts). */
export const COMPONENT_WEIGHTS: Readonly<Record<ComponentKey, number>> = FITTED_MODEL.component_weights;

export {
  BUILDING_SAFETY,
  COMPLAINT_BURDEN,
  DEFERRED_MAINTENANCE,
  FINANCIAL_DISTRESS,
  LEGAL_ENFORCEMENT,
  LIVING_CONDITIONS,
  MANAGEMENT_QUALITY,
};
export * from './categories';
export { COMPLAINT_RATIO_SCALE } from './complaint-burden';
export {
  EXPIRED_REGISTRATION_POINTS,
  NO_REGISTRATION_POINTS,
  UNCORRECTED_SHARE_FULL_EVIDENCE_PER_UNIT,
  UNCORRECTED_SHARE_POINTS,
} from './management-quality';
export { REINVESTMENT_CREDIT } from './deferred-maintenance';
