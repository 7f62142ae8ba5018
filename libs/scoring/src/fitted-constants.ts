// Written by `bhis validate --calibrate` (libs/score-runner/src/calibration.ts); docs/methodology.md, Constants.
export const FITTED_CONSTANTS = {
  "fitted_by": "npm run bhis -- validate --buildings 4450 --seeds validation,second --calibrate --write docs/methodology-validation.md (seed validation, cut 2023-11-02)",
  "component_weights": {
    "living_conditions": 0.073,
    "building_safety": 0.151,
    "complaint_burden": 0.196,
    "management_quality": 0.211,
    "financial_distress": 0.123,
    "deferred_maintenance": 0.119,
    "legal_enforcement": 0.127
  },
  "size": {
    "exponent": 0.252,
    "from_units": 3
  }
};
