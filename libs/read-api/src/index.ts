export * from './read-api.module';
export * from './dto/batch.dto';
export * from './dto/building.dto';
export * from './dto/envelope.dto';
export * from './dto/event.dto';
export * from './dto/search.dto';
export * from './dto/trajectory.dto';
export { sourceUrl } from './events/source-url';
export { CursorCodec } from './shared/cursor';
