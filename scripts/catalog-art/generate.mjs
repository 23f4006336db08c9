// Draws every illustration referenced by content/catalog (products, variations, categories) as SVG.
// Usage: node scripts/catalog-art/generate.mjs   (deterministic; rewrites content/catalog/images/*.svg)
//
// A product's art is chosen from ART by slug; the view comes from the file name after the slug:
//   <slug>.svg main · -back · -box · -mounted · -detail · -colors · -terminal · -flash
//   -<band> (eu868 …) main with a band tag · -<color> (black …) main in that colour.
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KINDS, BACKS, C, SWAG, g, r, c, p, logo } from './parts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../content/catalog');
const out = join(root, 'images');
mkdirSync(out, { recursive: true });

// slug → [kind, params, focus point for the detail view]
const ART = {
  'meshfront-indoor-gateway': ['gwIndoor', {}, [300, 490]],
  'meshfront-outdoor-gateway': ['gwOutdoor', {}, [370, 330]],
  'meshfront-pocket-gateway': ['gwPocket', {}, [400, 520]],
  'meshfront-concentrator-hat': ['hat', {}, [300, 330]],
  'refurbished-indoor-miner-bundle': ['miner', {}, [460, 480]],
  'refurbished-outdoor-miner-bundle': ['miner', { outdoor: 1 }, [460, 480]],
  'meshfront-gateway-starter-kit': ['kit', {}, [400, 445]],
  'partner-solar-gateway-kit': ['solar', {}, [400, 220]],
  'meshfront-fiberglass-antenna': ['antennaStick', { len: 470, w: 32 }, [470, 560]],
  'meshfront-stub-antenna': ['antennaStub', { gain: '3 dBi' }, [480, 570]],
  'meshfront-window-antenna': ['antennaWindow', { gain: '4 dBi' }, [400, 580]],
  'meshfront-high-gain-antenna': ['antennaStick', { len: 540, w: 32, gain: '10 dBi' }, [470, 560]],
  'meshfront-wideband-antenna': ['antennaStick', { len: 360, w: 34, col: '#E4E1EC', gain: '824–960' }, [470, 560]],
  'meshfront-ground-plane-antenna-kit': ['groundPlane', { gain: 'DIY' }, [400, 440]],
  'n-type-to-rp-sma-pigtail': ['pigtail', {}, [560, 420]],
  'low-loss-coax-cable': ['cableCoil', { label: 'N–N' }, [655, 600]],
  'lightning-arrestor-n-type': ['arrestor', {}, [400, 540]],
  'pole-mount-bracket-kit': ['poleBracket', {}, [400, 320]],
  'wall-mount-bracket': ['wallBracket', {}, [300, 360]],
  'ip67-outdoor-enclosure': ['enclosure', { label: 'IP67' }, [400, 610]],
  'passive-poe-injector-24v': ['poe', { label: '24V PASSIVE' }, [340, 480]],
  'poe-injector-802-3af': ['poe', { col: '#F4F3F8', label: '802.3af' }, [340, 480]],
  'usb-c-power-supply-5v-3a': ['psu', {}, [380, 500]],
  'meshfront-os-sd-card-32gb': ['sdcard', { label: '32GB', sub: 'MESHFRONT OS' }, [380, 270]],
  'industrial-microsd-card-64gb': ['sdcard', { label: '64GB', col: C.dark2, sub: 'INDUSTRIAL' }, [380, 270]],
  'self-amalgamating-tape': ['tape', {}, [400, 480]],
  'cable-gland-pack': ['glands', {}, [420, 440]],
  'outdoor-ethernet-cable-cat6': ['cableCoil', { col: C.P, end2: 'rj45', sw: 10, label: 'CAT6 20 m' }, [160, 590]],
  'gnss-timing-antenna': ['gps', {}, [380, 500]],
  'partner-telescopic-mast': ['mast', {}, [400, 460]],
  'miner-conversion-kit': ['conversionKit', {}, [480, 400]],
  'meshfront-os': ['osImage', {}, [400, 330]],
  'meshfront-flasher': ['flasher', {}, [400, 500]],
  'meshfront-priority-support': ['support', {}, [400, 420]],
  'remote-gateway-setup-session': ['service', {}, [300, 330]],
  'meshfront-t-shirt': ['tshirt', { color: 'black', colors: ['black', 'white', 'purple'] }, [470, 340]],
  'meshfront-hoodie': ['hoodie', { color: 'purple', colors: ['black', 'purple', 'mint'] }, [400, 420]],
  'meshfront-cap': ['cap', { color: 'black', colors: ['white', 'purple', 'mint'] }, [410, 380]],
  'meshfront-beanie': ['beanie', { color: 'mint', colors: ['black', 'purple', 'mint'] }, [400, 518]],
  'meshfront-sticker-pack': ['stickers', {}, [300, 330]],
  'meshfront-enamel-mug': ['mug', { color: 'white' }, [390, 420]],
  'meshfront-tote-bag': ['tote', { color: 'white' }, [400, 470]],
  'meshfront-enamel-pin': ['pin', {}, [400, 420]],
  'meshfront-socks': ['socks', { color: 'black', colors: ['black', 'purple', 'grey'] }, [380, 300]],
  'meshfront-lanyard': ['lanyard', {}, [400, 590]],
};
const BANDS = ['eu868', 'us915', 'as923', 'au915', 'in865', 'kr920'];

const svg = (inner, defs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 800" width="800" height="800"><defs>` +
  `<radialGradient id="bg" cx=".5" cy=".42" r=".75"><stop offset="0" stop-color="#FFFFFF"/><stop offset="1" stop-color="${C.bg2}"/></radialGradient>` +
  `<radialGradient id="sh"><stop offset="0" stop-color="${C.ink}" stop-opacity=".28"/><stop offset="1" stop-color="${C.ink}" stop-opacity="0"/></radialGradient>` +
  defs +
  `</defs><rect width="800" height="800" fill="url(#bg)"/>` +
  inner +
  `</svg>\n`;
const shadow = (x = 400, y = 642, rx = 250, ry = 30) =>
  `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="url(#sh)"/>`;
const draw = (kind, o) => KINDS[kind](o);

const ZOOM = {
  poe: 1.2,
  psu: 1.15,
  pigtail: 1.3,
  gps: 1.3,
  glands: 1.2,
  arrestor: 1.3,
  gwIndoor: 1.15,
  gwPocket: 1.2,
  hat: 1.05,
  miner: 1.08,
  cableCoil: 1.1,
  tape: 1.1,
};
const zoomed = (kind, inner) =>
  ZOOM[kind] ? g(`translate(400 640) scale(${ZOOM[kind]}) translate(-400 -640)`, inner) : inner;
function main(kind, o) {
  return svg(shadow() + zoomed(kind, draw(kind, o)));
}

function back(kind, o) {
  const f = BACKS[kind];
  return svg(shadow() + (f ? f(o) : g('translate(800 0) scale(-1 1)', draw(kind, o))));
}

function box(kind, o) {
  const carton =
    r(430, 330, 280, 300, 8, '#D9D2E4') +
    r(430, 330, 220, 300, 8, '#EDE8F3') +
    p('M430 330l40-60h240l-60 60z', '#F6F3FA') +
    p('M650 330l60-60v300l-60 60z', '#D9D2E4') +
    r(430, 420, 220, 46, 0, C.P) +
    logo(540, 443, 0.85, '#fff', C.P) +
    r(460, 500, 160, 10, 5, C.side) +
    r(460, 524, 110, 10, 5, C.side);
  const card = g(
    'translate(520 600) rotate(-8)',
    r(-80, -40, 160, 90, 8, '#fff', `stroke="${C.side}" stroke-width="2"`) +
      logo(-48, 4, 0.8) +
      r(-20, -8, 80, 8, 4, C.side) +
      r(-20, 10, 60, 8, 4, C.side),
  );
  return svg(
    shadow(560, 632, 200, 26) +
      carton +
      shadow(260, 680, 220, 24) +
      g('translate(20 290) scale(.6)', draw(kind, o)) +
      card,
  );
}

function mounted(kind, o) {
  const sky = `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#E3D4FF"/><stop offset="1" stop-color="#F7F4FB"/></linearGradient>`;
  const scene =
    r(0, 0, 800, 800, 0, 'url(#sky)') +
    c(640, 150, 60, '#fff', 'opacity=".8"') +
    p('M0 640l120-70 110 50 140-90 150 80 120-60 160 80v170H0z', '#DCD4EA') +
    p('M0 700l180-40 200 30 220-50 200 40v120H0z', '#CEC5E0');
  const upright = { ...o, upright: 1 };
  const isAnt = /^antenna|groundPlane/.test(kind);
  if (isAnt) {
    return svg(scene + r(386, 650, 28, 150, 4, C.metal) + g('translate(0 20)', draw(kind, upright)), sky);
  }
  return svg(
    scene +
      r(384, 0, 32, 800, 4, C.metal) +
      r(376, 190, 48, 20, 4, '#8E89A0') +
      r(376, 610, 48, 20, 4, '#8E89A0') +
      g('translate(100 70) scale(.75)', draw(kind, upright)),
    sky,
  );
}

function detail(kind, o, [fx, fy]) {
  const z = 2.3,
    cx = 490,
    cy = 330,
    R = 250;
  const defs = `<g id="o">${draw(kind, o)}</g><clipPath id="z"><circle cx="${cx}" cy="${cy}" r="${R}"/></clipPath>`;
  const k = 0.52,
    ox = -6,
    oy = 330,
    sx = ox + fx * k,
    sy = oy + fy * k;
  return svg(
    shadow(ox + 400 * k, oy + 642 * k, 170, 22) +
      `<use href="#o" transform="translate(${ox} ${oy}) scale(${k})"/>` +
      c(sx, sy, 30, 'none', `stroke="${C.P}" stroke-width="4"`) +
      p(
        `M${sx + 21} ${sy - 21}L${cx - R * 0.7} ${cy + R * 0.7}`,
        'none',
        `stroke="${C.P}" stroke-width="4" stroke-dasharray="8 8"`,
      ) +
      c(cx + 8, cy + 12, R, C.ink, 'opacity=".08"') +
      c(cx, cy, R, '#fff') +
      `<g clip-path="url(#z)"><use href="#o" transform="translate(${cx - fx * z} ${cy - fy * z}) scale(${z})"/></g>` +
      c(cx, cy, R, 'none', `stroke="#fff" stroke-width="12"`) +
      c(cx, cy, R + 6, 'none', `stroke="${C.P}" stroke-width="3"`),
    defs,
  );
}

function colors(kind, o, _f, list = ['black', 'purple', 'mint']) {
  const pos = [
    [40, 150, 0.56],
    [310, 150, 0.56],
    [175, 262, 0.56],
  ];
  return svg(
    list
      .map(
        (col, i) =>
          shadow(400 * pos[i][2] + pos[i][0] + 10, 640 * pos[i][2] + pos[i][1], 170, 20) +
          g(`translate(${pos[i][0]} ${pos[i][1]}) scale(${pos[i][2]})`, draw(kind, { ...o, color: col })),
      )
      .join(''),
  );
}

function soft(view, o) {
  if (view === 'terminal') return svg(shadow() + KINDS.terminal(o));
  if (view === 'flash') return svg(shadow() + KINDS.flasher({ progress: 420 }));
  if (view === 'sd') return svg(shadow() + KINDS.sdcard({ label: '', col: C.P, sub: 'MESHFRONT OS' }));
  if (view === 'miner') return svg(shadow() + KINDS.miner({}));
  return null;
}

export function render(slug, file) {
  const [kind, params, focus] = ART[slug];
  const view = file
    .slice(slug.length)
    .replace(/^-/, '')
    .replace(/\.svg$/, '');
  if (!view) return main(kind, params);
  if (BANDS.includes(view)) return main(kind, { ...params, band: view });
  if (SWAG[view]) return main(kind, { ...params, color: view });
  const sv = soft(view, params);
  if (sv) return sv;
  switch (view) {
    case 'back':
      return back(kind, params);
    case 'box':
      return box(kind, params);
    case 'mounted':
      return mounted(kind, params);
    case 'detail':
      return detail(kind, params, focus);
    case 'colors':
      return colors(kind, params, focus, params.colors);
    case 'colors-light':
      return colors(kind, params, focus, ['white', 'grey', 'purple']);
    default:
      throw new Error(`unknown view "${view}" in ${file}`);
  }
}

// ---------------------------------------------------------------- categories
const CATS = {
  gateways: [
    ['gwOutdoor', {}, 250, 60, 0.75],
    ['gwIndoor', {}, 40, 260, 0.6],
  ],
  'indoor-gateways': [['gwIndoor', {}, 0, 0, 1]],
  'outdoor-gateways': [['gwOutdoor', {}, 0, 0, 1]],
  'refurbished-miners': [['miner', {}, 0, 0, 1]],
  antennas: [
    ['antennaStick', { len: 520 }, -60, 0, 1],
    ['antennaStub', {}, 120, 60, 0.85],
    ['antennaWindow', {}, 330, 140, 0.7],
  ],
  accessories: [
    ['cableCoil', {}, 260, 160, 0.65],
    ['poleBracket', {}, 0, 120, 0.6],
    ['sdcard', { label: '' }, 380, 320, 0.4],
  ],
  'cables-connectors': [['cableCoil', {}, 0, 0, 1]],
  'mounts-enclosures': [
    ['enclosure', {}, 200, 150, 0.7],
    ['poleBracket', {}, -20, 150, 0.65],
  ],
  'power-poe': [['poe', {}, 0, 0, 1]],
  storage: [['sdcard', { label: '' }, 0, 0, 1]],
  software: [['osImage', {}, 0, 0, 1]],
  swag: [
    ['hoodie', { color: 'purple' }, 160, 120, 0.7],
    ['tshirt', { color: 'black' }, -20, 220, 0.6],
    ['cap', { color: 'mint' }, 350, 330, 0.5],
  ],
};
function category(slug) {
  const parts = CATS[slug];
  return svg(
    parts
      .map(
        ([k, o, x, y, s]) =>
          shadow(400 * s + x, 640 * s + y, 240 * s, 26 * s) + g(`translate(${x} ${y}) scale(${s})`, draw(k, o)),
      )
      .join(''),
  );
}

// ---------------------------------------------------------------- run
export function run() {
  const wanted = new Map();
  for (const f of readdirSync(join(root, 'products'))
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const prod = JSON.parse(readFileSync(join(root, 'products', f), 'utf8'));
    if (!ART[prod.slug]) throw new Error(`no art for ${prod.slug}`);
    const files = [prod.image, ...(prod.gallery || []), ...(prod.variations || []).map((v) => v.image).filter(Boolean)];
    for (const file of files) wanted.set(file, () => render(prod.slug, file));
  }
  for (const cat of JSON.parse(readFileSync(join(root, 'categories.json'), 'utf8'))) {
    if (!cat.image) continue;
    if (!CATS[cat.slug]) throw new Error(`no art for category ${cat.slug}`);
    wanted.set(cat.image, () => category(cat.slug));
  }
  let n = 0,
    big = 0;
  for (const [file, fn] of [...wanted].sort()) {
    const s = fn();
    if (s.length > 10_000) {
      big++;
      console.warn(`large: ${file} ${s.length}`);
    }
    writeFileSync(join(out, file), s);
    n++;
  }
  for (const f of readdirSync(out)) if (f.endsWith('.svg') && !wanted.has(f)) console.warn(`unreferenced image: ${f}`);
  console.log(`${n} images written${big ? `, ${big} over 10 KB` : ''}`);
}
export { category };
if (process.argv[1] === fileURLToPath(import.meta.url)) run();
