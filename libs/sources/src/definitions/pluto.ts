import { BoroughCode } from '@bhis/domain';
import { defineSource } from '../definition';
import { facts, splitAddress } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  '"borough","Tax block","Tax lot","community board","census tract 2010","cb2010","schooldist","council district","postcode","firecomp","policeprct","healtharea","sanitboro","sanitsub","address","zonedist1","zonedist2","zonedist3","zonedist4","overlay1","overlay2","spdist1","spdist2","spdist3","ltdheight","splitzone","bldgclass","landuse","easements","ownertype","ownername","lotarea","bldgarea","comarea","resarea","officearea","retailarea","garagearea","strgearea","factryarea","otherarea","areasource","numbldgs","numfloors","unitsres","unitstotal","lotfront","lotdepth","bldgfront","bldgdepth","ext","proxcode","irrlotcode","lottype","bsmtcode","assessland","assesstot","exempttot","yearbuilt","yearalter1","yearalter2","histdist","landmark","builtfar","residfar","commfar","facilfar","affresfar","mnffar","borocode","BBL","condono","tract2010","xcoord","ycoord","latitude","longitude","zonemap","zmcode","sanborn","taxmap","edesignum","appbbl","appdate","plutomapid","version","sanitdistrict","healthcenterdistrict","firm07_flag","pfirm15_flag","dcpedited","notes","bct2020","bctcb2020","mihopt1","mihopt2","mihopt3","mihopt4","transitzone","geom","basempdate","dcasdate","edesigdate","landmkdate","masdate","polidate","rpaddate","zoningdate"',
);

/** The 101-column release (until 2026-06): no affresfar, mnffar, mihopt1-4, transitzone; dates in another order. */
const HEADER_101 = headerOf(
  'borough,Tax block,Tax lot,community board,census tract 2010,cb2010,schooldist,council district,postcode,firecomp,policeprct,healtharea,sanitboro,sanitsub,address,zonedist1,zonedist2,zonedist3,zonedist4,overlay1,overlay2,spdist1,spdist2,spdist3,ltdheight,splitzone,bldgclass,landuse,easements,ownertype,ownername,lotarea,bldgarea,comarea,resarea,officearea,retailarea,garagearea,strgearea,factryarea,otherarea,areasource,numbldgs,numfloors,unitsres,unitstotal,lotfront,lotdepth,bldgfront,bldgdepth,ext,proxcode,irrlotcode,lottype,bsmtcode,assessland,assesstot,exempttot,yearbuilt,yearalter1,yearalter2,histdist,landmark,builtfar,residfar,commfar,facilfar,borocode,BBL,condono,tract2010,xcoord,ycoord,latitude,longitude,zonemap,zmcode,sanborn,taxmap,edesignum,appbbl,appdate,plutomapid,version,sanitdistrict,healthcenterdistrict,firm07_flag,pfirm15_flag,rpaddate,dcasdate,zoningdate,landmkdate,basempdate,masdate,polidate,edesigdate,geom,dcpedited,notes,bct2020,bctcb2020',
);

export const pluto = defineSource({
  key: 'pluto',
  name: 'Primary Land Use Tax Lot Output (PLUTO)',
  agency: 'DCP',
  description: 'One row per tax lot: address, units, year built, building class, owner, coordinates.',
  cadence: 'quarterly',
  refresh: 'whole_replace',
  components: [],
  produces: { events: [], facts: ['pluto_building'] },
  minimumRows: 800_000,
  parts: [
    {
      part: 'main',
      datasetId: '64uk-42ks',
      fileNames: ['pluto_latest.csv', 'pluto.csv'],
      header: HEADER,
      headerVariants: [HEADER_101],
      sodaFields: sodaFieldsFor(HEADER, {
        'Tax block': 'block',
        'Tax lot': 'lot',
        'community board': 'cd',
        'census tract 2010': 'ct2010',
        'council district': 'council',
        postcode: 'zipcode',
        BBL: 'bbl',
      }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'borough', block: 'Tax block', lot: 'Tax lot' },
      ],
      recordKey: (f) => f.raw('BBL') || [f.raw('borough'), f.raw('Tax block'), f.raw('Tax lot')].join('-'),
      map: ({ f, bbl }) => {
        const lotBbl = bbl as string;
        const address = f.upper('address');
        const place = f.coordinates('latitude', 'longitude');
        return facts({
          kind: 'pluto_building',
          bbl: lotBbl,
          borough: Number(lotBbl[0]) as BoroughCode,
          block: Number(lotBbl.slice(1, 6)),
          lot: Number(lotBbl.slice(6)),
          address,
          ...splitAddress(address),
          zipcode: f.text('postcode'),
          residential_units: f.int('unitsres'),
          total_units: f.int('unitstotal'),
          year_built: f.int('yearbuilt') || null,
          building_class: f.upper('bldgclass'),
          owner_name: f.text('ownername'),
          latitude: place?.latitude ?? null,
          longitude: place?.longitude ?? null,
          num_buildings: f.int('numbldgs'),
          num_floors: f.decimal('numfloors'),
        });
      },
    },
  ],
});
