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
          "buildings": 765,
          "realized_rate": 0.016,
          "expected_rate": 0.019
        },
        {
          "band": "3-5",
          "grade": "B",
          "buildings": 723,
          "realized_rate": 0.024,
          "expected_rate": 0.026
        },
        {
          "band": "3-5",
          "grade": "C",
          "buildings": 401,
          "realized_rate": 0.04,
          "expected_rate": 0.039
        },
        {
          "band": "3-5",
          "grade": "D",
          "buildings": 315,
          "realized_rate": 0.054,
          "expected_rate": 0.066
        },
        {
          "band": "3-5",
          "grade": "F",
          "buildings": 319,
          "realized_rate": 0.257,
          "expected_rate": 0.242
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
          "buildings": 832,
          "realized_rate": 0.025,
          "expected_rate": 0.019
        },
        {
          "band": "3-5",
          "grade": "B",
          "buildings": 757,
          "realized_rate": 0.022,
          "expected_rate": 0.025
        },
        {
          "band": "3-5",
          "grade": "C",
          "buildings": 410,
          "realized_rate": 0.029,
          "expected_rate": 0.033
        },
        {
          "band": "3-5",
          "grade": "D",
          "buildings": 280,
          "realized_rate": 0.064,
          "expected_rate": 0.061
        },
        {
          "band": "3-5",
          "grade": "F",
          "buildings": 256,
          "realized_rate": 0.246,
          "expected_rate": 0.225
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
