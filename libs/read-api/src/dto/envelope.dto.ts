import { ApiProperty } from '@nestjs/swagger';
import { PageLinksDto, SelfLinksDto } from '@bhis/api-platform';

export class BuildingLinksDto extends SelfLinksDto {
  @ApiProperty({ format: 'uri' }) events!: string;
  @ApiProperty({ format: 'uri' }) trajectory!: string;
}

/** The links of a page of a building's record (its events, its trajectory): itself, the next page and the building. */
export class BuildingPageLinksDto extends PageLinksDto {
  @ApiProperty({ format: 'uri' }) building!: string;
}
