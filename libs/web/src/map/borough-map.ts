import BOROUGHS_FILE from './nyc-boroughs.json';

interface BoroughOutline {
  code: number;
  name: string;
  /** Outer rings, [longitude, latitude] pairs (tools/map/simplify-boroughs.js). */
  rings: [number, number][][];
}

const BOROUGHS = BOROUGHS_FILE.boroughs as BoroughOutline[];

/** Equirectangular at the city's latitude: at this scale the distortion is under 1%. */
const COS_LAT = Math.cos((40.7 * Math.PI) / 180);
const WIDTH = 400;

interface Box {
  minLon: number;
  maxLon: number;
  minLat: number;
  maxLat: number;
}

function boxOf(outlines: readonly BoroughOutline[]): Box {
  const box = { minLon: Infinity, maxLon: -Infinity, minLat: Infinity, maxLat: -Infinity };
  for (const outline of outlines) {
    for (const ring of outline.rings) {
      for (const [lon, lat] of ring) {
        box.minLon = Math.min(box.minLon, lon);
        box.maxLon = Math.max(box.maxLon, lon);
        box.minLat = Math.min(box.minLat, lat);
        box.maxLat = Math.max(box.maxLat, lat);
      }
    }
  }
  return box;
}

const CITY = boxOf(BOROUGHS);

export interface BoroughMapOptions {
  latitude: number;
  longitude: number;
  /** The building's borough (1-5): the map frames it and shades it. */
  borough: number;
  /** Words for the map's title (the address). */
  label: string;
}

/** Whether a point is in the city's frame at all (coordinates far away are a data error, not a place to draw). */
export function inCity(latitude: number, longitude: number): boolean {
  const margin = 0.05;
  return longitude >= CITY.minLon - margin && longitude <= CITY.maxLon + margin && latitude >= CITY.minLat - margin && latitude <= CITY.maxLat + margin;
}

const fixed = (value: number) => value.toFixed(1);

interface Framing {
  height: number;
  x: (lon: number) => number;
  y: (lat: number) => number;
  /** The outlines' paths, in this frame. */
  paths: string;
}

/** One frame per borough, computed once: the outlines do not change. */
const FRAMES = new Map<number, Framing>();

function framedOn(borough: number): Framing {
  const known = FRAMES.get(borough);
  if (known) return known;
  const framed = BOROUGHS.filter((b) => b.code === borough);
  const box = boxOf(framed.length > 0 ? framed : BOROUGHS);
  const pad = 0.08 * Math.max(box.maxLon - box.minLon, box.maxLat - box.minLat);
  const frame = { minLon: box.minLon - pad, maxLon: box.maxLon + pad, minLat: box.minLat - pad, maxLat: box.maxLat + pad };
  const scale = WIDTH / ((frame.maxLon - frame.minLon) * COS_LAT);
  const x = (lon: number) => (lon - frame.minLon) * COS_LAT * scale;
  const y = (lat: number) => (frame.maxLat - lat) * scale;
  const paths = BOROUGHS.map((outline) => {
    const d = outline.rings.map((ring) => `M${ring.map(([lon, lat]) => `${fixed(x(lon))},${fixed(y(lat))}`).join('L')}Z`).join('');
    return `<path class="borough${outline.code === borough ? ' borough-current' : ''}" data-borough="${outline.code}" d="${d}"><title>${outline.name}</title></path>`;
  }).join('');
  const framing = { height: Math.round((frame.maxLat - frame.minLat) * scale), x, y, paths };
  if (framed.length > 0) FRAMES.set(borough, framing);
  return framing;
}

/**
 * The building's location as inline SVG: the borough outlines shipped with the project (nothing
 * loaded from another host), framed on the building's borough, with a marker at its coordinates.
 */
export function boroughMapSvg(options: BoroughMapOptions): string {
  const { height, x, y, paths } = framedOn(options.borough);
  const cx = fixed(x(options.longitude));
  const cy = fixed(y(options.latitude));
  const name = BOROUGHS.find((b) => b.code === options.borough)?.name ?? 'New York City';
  return `<svg class="borough-map" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="map-title" data-latitude="${options.latitude}" data-longitude="${options.longitude}">
<title id="map-title">Location of ${escapeXml(options.label)} in ${name}, at ${options.latitude.toFixed(5)}, ${options.longitude.toFixed(5)}</title>
${paths}
<circle class="marker-halo" cx="${cx}" cy="${cy}" r="9"></circle><circle id="map-marker" class="marker" cx="${cx}" cy="${cy}" r="5"></circle>
</svg>`;
}

const TILE = 256;
const TILE_ZOOM = 16;

/**
 * Map tiles around the building from the tile server the operator configured (`{z}/{x}/{y}` in its
 * URL template, OpenStreetMap's slippy-map numbering), as SVG images with the marker on top.
 */
export function tileMapSvg(template: string, latitude: number, longitude: number): string {
  const n = 2 ** TILE_ZOOM;
  const latRad = (latitude * Math.PI) / 180;
  const tx = ((longitude + 180) / 360) * n;
  const ty = ((1 - Math.log(Math.tan(latRad) + 1 / Math.cos(latRad)) / Math.PI) / 2) * n;
  const width = 512;
  const height = 320;
  // the view's top left in world pixels at this zoom
  const left = tx * TILE - width / 2;
  const top = ty * TILE - height / 2;
  const images: string[] = [];
  for (let col = Math.floor(left / TILE); col * TILE < left + width; col++) {
    for (let row = Math.floor(top / TILE); row * TILE < top + height; row++) {
      const href = template.replace('{z}', String(TILE_ZOOM)).replace('{x}', String(col)).replace('{y}', String(row));
      images.push(`<image href="${escapeXml(href)}" x="${fixed(col * TILE - left)}" y="${fixed(row * TILE - top)}" width="${TILE}" height="${TILE}"></image>`);
    }
  }
  return `<svg class="tile-map" viewBox="0 0 ${width} ${height}" role="img" aria-label="Street map around the building">
${images.join('')}
<circle class="marker-halo" cx="${width / 2}" cy="${height / 2}" r="9"></circle><circle class="marker" cx="${width / 2}" cy="${height / 2}" r="5"></circle>
</svg>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
