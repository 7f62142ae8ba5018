#!/usr/bin/env node
// Simplifies a GeoJSON of the five borough outlines into the small file the building pages draw
// (libs/web/src/map/nyc-boroughs.json). The outlines are the City's Borough Boundaries (NYC
// Department of City Planning, public), as republished in GeoJSON by Code for America's
// click_that_hood (public/data/new-york-city-boroughs.geojson, commit 48ba05ad4c6969e3b3c25735492169227ae411f1).
// Usage: node tools/map/simplify-boroughs.js <new-york-city-boroughs.geojson> [output.json]
const fs = require('node:fs');
const path = require('node:path');

/** Degrees: a point closer than this to the simplified line is dropped (~100 m across the city). */
const TOLERANCE = 0.001;
/** Square degrees: islands smaller than this (~0.3 km²) are left out. */
const MIN_AREA = 0.00003;
const DECIMALS = 4;
const BOROUGH_CODES = { Manhattan: 1, Bronx: 2, Brooklyn: 3, Queens: 4, 'Staten Island': 5 };

function perpendicularDistance(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length = Math.hypot(dx, dy);
  if (length === 0) return Math.hypot(p[0] - a[0], p[1] - a[1]);
  return Math.abs(dy * p[0] - dx * p[1] + b[0] * a[1] - b[1] * a[0]) / length;
}

/** Douglas-Peucker, iterative (the rings have thousands of points). */
function simplify(points, tolerance) {
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop();
    let worst = -1;
    let worstDistance = tolerance;
    for (let i = first + 1; i < last; i++) {
      const distance = perpendicularDistance(points[i], points[first], points[last]);
      if (distance > worstDistance) {
        worst = i;
        worstDistance = distance;
      }
    }
    if (worst !== -1) {
      keep[worst] = 1;
      stack.push([first, worst], [worst, last]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

function area(ring) {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return Math.abs(sum / 2);
}

const round = (value) => Number(value.toFixed(DECIMALS));

function main() {
  const [input, output = path.resolve(__dirname, '../../libs/web/src/map/nyc-boroughs.json')] = process.argv.slice(2);
  if (!input) {
    console.error('usage: simplify-boroughs.js <new-york-city-boroughs.geojson> [output.json]');
    process.exit(2);
  }
  const collection = JSON.parse(fs.readFileSync(input, 'utf8'));
  const boroughs = collection.features
    .map((feature) => {
      const name = feature.properties.name;
      const polygons = feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates;
      // outer rings only: the outlines have no holes worth drawing at this scale
      const rings = polygons
        .map((polygon) => polygon[0])
        .filter((ring) => area(ring) >= MIN_AREA)
        .map((ring) => simplify(ring, TOLERANCE).map(([lon, lat]) => [round(lon), round(lat)]))
        .filter((ring) => ring.length >= 4);
      return { code: BOROUGH_CODES[name], name, rings };
    })
    .sort((a, b) => a.code - b.code);
  const result = {
    source: 'NYC Department of City Planning, Borough Boundaries (public), via codeforgermany/click_that_hood public/data/new-york-city-boroughs.geojson',
    simplified: { tolerance_degrees: TOLERANCE, min_area_square_degrees: MIN_AREA, decimals: DECIMALS },
    boroughs,
  };
  fs.writeFileSync(output, `${JSON.stringify(result)}\n`);
  const points = boroughs.reduce((n, b) => n + b.rings.reduce((m, r) => m + r.length, 0), 0);
  console.log(`${output}: ${boroughs.length} boroughs, ${points} points, ${fs.statSync(output).size} bytes`);
}

main();
