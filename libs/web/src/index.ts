export * from './openapi/build-openapi-document';
export * from './openapi/embedded-document';
export * from './openapi/json';
export { OPENAPI_DOCUMENT } from './generated/openapi-document';
export * from './web.module';
export { renderApiDocs } from './reference/api-docs-markdown';
export { renderLlmsTxt } from './reference/llms-txt';
export { PrecompressedAssets } from './precompressed-assets';
