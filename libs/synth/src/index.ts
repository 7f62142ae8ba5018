export { generateCity, DEFAULT_AS_OF, DEFAULT_YEARS } from './generate-city';
export type { GenerateCityOptions, CityReport, CityFileReport, EventDistribution, SynthProgress } from './generate-city';
export { HEADERS, ECB_DRIFTED_HEADER } from './formats/headers';
export type { SourceKey } from './formats/headers';
export { OUTPUT_FILES } from './formats/files';
export { measureGeneration } from './measure';
export type { GenerationMeasurement } from './measure';
export { buildingAt } from './buildings';
