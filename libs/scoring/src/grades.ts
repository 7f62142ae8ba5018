import { GRADES, Grade } from '@bhis/domain';

/**
 * Grade bands of a distress score (total or component): the lowest score of each grade. There is no
 * grade E: the scale follows US letter grades, A B C D F, as GRADES in the domain does.
 */
export const GRADE_BANDS: readonly { grade: Grade; min_score: number; label: string; meaning: string }[] = [
  { grade: 'A', min_score: 0, label: 'Excellent', meaning: 'few or no public-record signs of distress' },
  { grade: 'B', min_score: 15, label: 'Good', meaning: 'minor or old issues, typical of well-kept buildings' },
  { grade: 'C', min_score: 30, label: 'Fair', meaning: 'a noticeable record of problems' },
  { grade: 'D', min_score: 45, label: 'Poor', meaning: 'serious, persistent problems' },
  { grade: 'F', min_score: 65, label: 'Distressed', meaning: 'severe chronic distress, at the level of HPD enforcement programs' },
];

/**
 * The label of a building graded under a known limit (public housing, an unreliable unit count): its grade
 * is held between B and D, and no label of a grade ("Good", "Excellent"...) can be claimed for it.
 */
export const UNCERTAIN_LABEL = 'Cannot be graded with confidence';

export type GradeLabel = 'Excellent' | 'Good' | 'Fair' | 'Poor' | 'Distressed' | typeof UNCERTAIN_LABEL;

export const GRADE_LABELS: Readonly<Record<Grade, Exclude<GradeLabel, typeof UNCERTAIN_LABEL>>> = Object.fromEntries(
  GRADE_BANDS.map((band) => [band.grade, band.label]),
) as Record<Grade, Exclude<GradeLabel, typeof UNCERTAIN_LABEL>>;

export function gradeOf(score: number): Grade {
  for (let i = GRADE_BANDS.length - 1; i > 0; i--) {
    if (score >= GRADE_BANDS[i].min_score) return GRADE_BANDS[i].grade;
  }
  return 'A';
}

export function minScoreOf(grade: Grade): number {
  return GRADE_BANDS[GRADES.indexOf(grade)].min_score;
}

/** The highest integer score that still has the given grade. */
export function maxScoreOf(grade: Grade): number {
  const next = GRADE_BANDS[GRADES.indexOf(grade) + 1];
  return next === undefined ? 100 : next.min_score - 1;
}
