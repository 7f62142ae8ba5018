import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateBy } from 'class-validator';
import { GRADES, isGrade, parseBorough } from '@bhis/domain';
import { PORTFOLIO_BBL_LIMIT } from '../bbl-list';

const IsBorough = () =>
  ValidateBy({
    name: 'isBorough',
    validator: {
      validate: (value: unknown) => (typeof value === 'number' || typeof value === 'string') && parseBorough(value) !== null,
      defaultMessage: () => 'borough must be a borough code 1-5 or a borough name',
    },
  });

const IsGradeList = () =>
  ValidateBy({
    name: 'isGradeList',
    validator: {
      validate: (value: unknown) => {
        const list = typeof value === 'string' ? value.split(',') : value;
        return Array.isArray(list) && list.length > 0 && list.every((g) => typeof g === 'string' && isGrade(g.trim().toUpperCase()));
      },
      defaultMessage: () => 'grade must be a grade A, B, C, D or F, a comma list of grades or an array of grades',
    },
  });

/** `bbls`, or the search filters (at least one); not both. */
export class ExportRequestDto {
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: PORTFOLIO_BBL_LIMIT, description: 'BBLs to export (rows in request order).' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  bbls?: unknown[];

  @ApiPropertyOptional({ example: '123 w 45th st', description: 'Free-text address, normalized (123 w 45th st matches 123 WEST 45 STREET).' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  address?: string;

  @ApiPropertyOptional({ oneOf: [{ type: 'integer', minimum: 1, maximum: 5 }, { type: 'string' }], example: 2, description: 'Code 1-5 or name.' })
  @IsOptional()
  @IsBorough()
  borough?: number | string;

  @ApiPropertyOptional({ example: '10453' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{5}$/, { message: 'zipcode must be 5 digits' })
  zipcode?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', example: 'D,F' }, { type: 'array', items: { type: 'string', enum: [...GRADES] } }],
    description: 'One grade, a comma list or an array.',
  })
  @IsOptional()
  @IsGradeList()
  grade?: string | string[];

  @ApiPropertyOptional({ example: 'smith', description: 'Owner name substring, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  owner?: string;

  @ApiPropertyOptional({ example: 'C', description: 'Building class prefix (C matches C0-C9).' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z][0-9A-Za-z]?$/, { message: 'building_class must be a class letter, optionally followed by one character' })
  building_class?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, description: 'Minimum total_score (0-100, inclusive; scores are whole numbers).' })
  @IsOptional()
  @IsInt({ message: 'min_score must be a whole number 0-100' })
  @Min(0)
  @Max(100)
  min_score?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, description: 'Maximum total_score (0-100, inclusive; scores are whole numbers).' })
  @IsOptional()
  @IsInt({ message: 'max_score must be a whole number 0-100' })
  @Min(0)
  @Max(100)
  max_score?: number;
}
