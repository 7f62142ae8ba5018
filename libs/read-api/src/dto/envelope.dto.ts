import { ApiProperty } from '@nestjs/swagger';
import { SelfLinksDto } from '@bhis/api-platform';

export class BuildingLinksDto extends SelfLinksDto {
  @ApiProperty({ format: 'uri' }) events!: string;
  @ApiProperty({ format: 'uri' }) trajectory!: string;
}

/** The links of a part of a building's record (its events, its trajectory): itself and the building. */
export class BuildingPartLinksDto extends SelfLinksDto {
  @ApiProperty({ format: 'uri' }) building!: string;
}
