// Written by `bhis validate --calibrate` (libs/score-runner/src/calibration.ts); docs/methodology.md, Constants.
export const FITTED_CONSTANTS = {
  "fitted_by": "npm run bhis -- validate --buildings 4450 --seeds validation,second --calibrate --write docs/methodology-validation.md (seed validation, cut 2023-11-02)",
  "component_weights": {
    "living_conditions": 0.369,
    "building_safety": 0,
    "complaint_burden": 0.302,
    "management_quality": 0.176,
    "financial_distress": 0.085,
    "deferred_maintenance": 0,
    "legal_enforcement": 0.068
  },
  "size": {
    "exponent": 0.189,
    "from_units": 3
  },
  "knee": 0.1,
  "half_life_factor": 0.35,
  "small_buildings": {
    "to_units": 5,
    "half_life_factor": 0.7,
    "level": 0.768
  },
  "scale": 2,
  "confidence": {
    "move": {
      "base": 4.117,
      "spread": 0.348,
      "uncorroborated": -0.748
    },
    "interval_multipliers": {
      "high": 0.65,
      "medium": 1.45,
      "low": 1,
      "insufficient": 0.7
    }
  }
};
