import { statSync } from 'node:fs';
import { join } from 'node:path';
import { boroughMapSvg, inCity, tileMapSvg } from './borough-map';

describe('the borough map', () => {
  it('ships small outlines of the five boroughs', () => {
    expect(statSync(join(__dirname, 'nyc-boroughs.json')).size).toBeLessThan(40_000);
    const svg = boroughMapSvg({ latitude: 40.7577, longitude: -73.9857, borough: 1, label: 'A' });
    expect(svg.match(/data-borough="\d"/g)).toEqual(['data-borough="1"', 'data-borough="2"', 'data-borough="3"', 'data-borough="4"', 'data-borough="5"']);
    expect(svg).not.toMatch(/https?:/);
  });

  it('places the marker inside the frame of the borough', () => {
    const svg = boroughMapSvg({ latitude: 40.7577, longitude: -73.9857, borough: 1, label: 'A' });
    const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)?.map(Number) ?? [];
    const [, cx, cy] = /id="map-marker" class="marker" cx="([\d.]+)" cy="([\d.]+)"/.exec(svg)?.map(Number) ?? [];
    expect(cx).toBeGreaterThan(0);
    expect(cx).toBeLessThan(width);
    expect(cy).toBeGreaterThan(0);
    expect(cy).toBeLessThan(height);
  });

  it('tells a location far from the city apart', () => {
    expect(inCity(40.7577, -73.9857)).toBe(true);
    expect(inCity(0, 0)).toBe(false);
  });

  it('asks the configured tile server for the tiles around the building', () => {
    const svg = tileMapSvg('https://tiles.example.org/{z}/{x}/{y}.png', 40.7577, -73.9857);
    // Times Square at zoom 16 is tile x 19299, y 24629 (OpenStreetMap slippy-map numbering)
    expect(svg).toContain('href="https://tiles.example.org/16/19299/24629.png"');
  });
});
