// Written by `bhis validate --write` (tools/cli/src/commands/validate.ts); docs/methodology.md, Total score.
export const GRADE_OUTCOME_RATES: {
  measured_by: string | null;
  cities: { seed: string; buildings: number; rows: { band: string; grade: string; buildings: number; realized_rate: number; expected_rate: number | null }[] }[];
} = {
  "measured_by": "npm run bhis -- validate --buildings 4450 --seeds validation,second --calibrate --write docs/methodology-validation.md",
  "cities": [
    {
      "seed": "validation",
      "buildings": 4450,
      "rows": [
        {
          "band": "3-5",
          "grade": "A",
          "buildings": 1008,
          "realized_rate": 0.018,
          "expected_rate": 0.02
        },
        {
          "band": "3-5",
          "grade": "B",
          "buildings": 658,
          "realized_rate": 0.032,
          "expected_rate": 0.03
        },
        {
          "band": "3-5",
          "grade": "C",
          "buildings": 381,
          "realized_rate": 0.037,
          "expected_rate": 0.05
        },
        {
          "band": "3-5",
          "grade": "D",
          "buildings": 244,
          "realized_rate": 0.057,
          "expected_rate": 0.086
        },
        {
          "band": "3-5",
          "grade": "F",
          "buildings": 232,
          "realized_rate": 0.332,
          "expected_rate": 0.29
        },
        {
          "band": "6-19",
          "grade": "A",
          "buildings": 344,
          "realized_rate": 0.015,
          "expected_rate": 0.023
        },
        {
          "band": "6-19",
          "grade": "B",
          "buildings": 383,
          "realized_rate": 0.044,
          "expected_rate": 0.035
        },
        {
          "band": "6-19",
          "grade": "C",
          "buildings": 210,
          "realized_rate": 0.048,
          "expected_rate": 0.056
        },
        {
          "band": "6-19",
          "grade": "D",
          "buildings": 183,
          "realized_rate": 0.087,
          "expected_rate": 0.109
        },
        {
          "band": "6-19",
          "grade": "F",
          "buildings": 242,
          "realized_rate": 0.455,
          "expected_rate": 0.436
        },
        {
          "band": "20-49",
          "grade": "A",
          "buildings": 126,
          "realized_rate": 0.008,
          "expected_rate": 0.026
        },
        {
          "band": "20-49",
          "grade": "B",
          "buildings": 247,
          "realized_rate": 0.04,
          "expected_rate": 0.037
        },
        {
          "band": "20-49",
          "grade": "C",
          "buildings": 139,
          "realized_rate": 0.029,
          "expected_rate": 0.06
        },
        {
          "band": "20-49",
          "grade": "D",
          "buildings": 107,
          "realized_rate": 0.075,
          "expected_rate": 0.11
        },
        {
          "band": "20-49",
          "grade": "F",
          "buildings": 155,
          "realized_rate": 0.477,
          "expected_rate": 0.429
        },
        {
          "band": "50+",
          "grade": "A",
          "buildings": 60,
          "realized_rate": 0.067,
          "expected_rate": 0.033
        },
        {
          "band": "50+",
          "grade": "B",
          "buildings": 216,
          "realized_rate": 0.042,
          "expected_rate": 0.043
        },
        {
          "band": "50+",
          "grade": "C",
          "buildings": 108,
          "realized_rate": 0.065,
          "expected_rate": 0.09
        },
        {
          "band": "50+",
          "grade": "D",
          "buildings": 81,
          "realized_rate": 0.123,
          "expected_rate": 0.146
        },
        {
          "band": "50+",
          "grade": "F",
          "buildings": 120,
          "realized_rate": 0.458,
          "expected_rate": 0.481
        }
      ]
    },
    {
      "seed": "second",
      "buildings": 4450,
      "rows": [
        {
          "band": "3-5",
          "grade": "A",
          "buildings": 1073,
          "realized_rate": 0.022,
          "expected_rate": 0.019
        },
        {
          "band": "3-5",
          "grade": "B",
          "buildings": 704,
          "realized_rate": 0.028,
          "expected_rate": 0.028
        },
        {
          "band": "3-5",
          "grade": "C",
          "buildings": 355,
          "realized_rate": 0.031,
          "expected_rate": 0.04
        },
        {
          "band": "3-5",
          "grade": "D",
          "buildings": 226,
          "realized_rate": 0.106,
          "expected_rate": 0.087
        },
        {
          "band": "3-5",
          "grade": "F",
          "buildings": 177,
          "realized_rate": 0.294,
          "expected_rate": 0.274
        },
        {
          "band": "6-19",
          "grade": "A",
          "buildings": 398,
          "realized_rate": 0.033,
          "expected_rate": 0.023
        },
        {
          "band": "6-19",
          "grade": "B",
          "buildings": 409,
          "realized_rate": 0.027,
          "expected_rate": 0.03
        },
        {
          "band": "6-19",
          "grade": "C",
          "buildings": 247,
          "realized_rate": 0.061,
          "expected_rate": 0.051
        },
        {
          "band": "6-19",
          "grade": "D",
          "buildings": 163,
          "realized_rate": 0.16,
          "expected_rate": 0.105
        },
        {
          "band": "6-19",
          "grade": "F",
          "buildings": 193,
          "realized_rate": 0.383,
          "expected_rate": 0.351
        },
        {
          "band": "20-49",
          "grade": "A",
          "buildings": 188,
          "realized_rate": 0.032,
          "expected_rate": 0.026
        },
        {
          "band": "20-49",
          "grade": "B",
          "buildings": 303,
          "realized_rate": 0.026,
          "expected_rate": 0.037
        },
        {
          "band": "20-49",
          "grade": "C",
          "buildings": 141,
          "realized_rate": 0.057,
          "expected_rate": 0.068
        },
        {
          "band": "20-49",
          "grade": "D",
          "buildings": 103,
          "realized_rate": 0.165,
          "expected_rate": 0.12
        },
        {
          "band": "20-49",
          "grade": "F",
          "buildings": 99,
          "realized_rate": 0.414,
          "expected_rate": 0.402
        },
        {
          "band": "50+",
          "grade": "A",
          "buildings": 51,
          "realized_rate": 0.02,
          "expected_rate": 0.031
        },
        {
          "band": "50+",
          "grade": "B",
          "buildings": 237,
          "realized_rate": 0.055,
          "expected_rate": 0.044
        },
        {
          "band": "50+",
          "grade": "C",
          "buildings": 130,
          "realized_rate": 0.108,
          "expected_rate": 0.074
        },
        {
          "band": "50+",
          "grade": "D",
          "buildings": 99,
          "realized_rate": 0.091,
          "expected_rate": 0.13
        },
        {
          "band": "50+",
          "grade": "F",
          "buildings": 89,
          "realized_rate": 0.449,
          "expected_rate": 0.413
        }
      ]
    }
  ]
};
