import { ApiProperty } from '@nestjs/swagger';
import { SelfLinksDto } from '@bhis/api-platform';

export class BuildingLinksDto extends SelfLinksDto {
  @ApiProperty({ format: 'uri' }) events!: string;
  @ApiProperty({ format: 'uri' }) trajectory!: string;
}
