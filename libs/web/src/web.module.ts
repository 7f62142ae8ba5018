import { Module } from '@nestjs/common';
import { ReadApiModule } from '@bhis/read-api';
import { PrecompressedAssets } from './precompressed-assets';
import { WebController } from './web.controller';

/** The reference files (/llms.txt, /api-docs.md, /methodology.md, the OpenAPI document) and the pages. */
@Module({ imports: [ReadApiModule], controllers: [WebController], providers: [PrecompressedAssets] })
export class WebModule {}
