// Drawing parts for Meshfront's catalog illustrations. Every function returns SVG markup drawn in an
// 800x800 frame with the ground line at y≈640. Deterministic: no randomness, no clocks.

export const C = {
  P: '#8200FF',
  Pd: '#5B00B5',
  Pl: '#C9A3FF',
  Pxl: '#EFE5FF',
  M: '#00FFAA',
  Md: '#00C889',
  Ml: '#B8FFE6',
  ink: '#221E33',
  body: '#FBFAFD',
  side: '#DEDAE8',
  mid: '#B8B3C6',
  metal: '#A9A4B8',
  dark: '#2B2738',
  dark2: '#3D3850',
  bg: '#F3F1F7',
  bg2: '#E9E5F1',
};
export const FONT = 'font-family="Arial, Helvetica, sans-serif"';

export const SWAG = {
  black: { c: '#26232F', d: '#16141C', print: C.M },
  white: { c: '#FAFAFC', d: '#C9C4D6', print: C.P },
  purple: { c: '#8200FF', d: '#5B00B5', print: C.M },
  mint: { c: '#3FF2B9', d: '#14C98F', print: C.P },
  grey: { c: '#9A96A6', d: '#75717F', print: '#FFFFFF' },
};

const r = (x, y, w, h, rx, fill, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}"${rx ? ` rx="${rx}"` : ''} fill="${fill}"${extra ? ` ${extra}` : ''}/>`;
const c = (x, y, rr, fill, extra = '') =>
  `<circle cx="${x}" cy="${y}" r="${rr}" fill="${fill}"${extra ? ` ${extra}` : ''}/>`;
const p = (d, fill, extra = '') => `<path d="${d}" fill="${fill}"${extra ? ` ${extra}` : ''}/>`;
const t = (x, y, s, fill, str, extra = '') =>
  `<text x="${x}" y="${y}" font-size="${s}" ${FONT} font-weight="700" fill="${fill}" text-anchor="middle"${extra ? ` ${extra}` : ''}>${str}</text>`;
export const g = (tr, inner) => `<g transform="${tr}">${inner}</g>`;
export { r, c, p, t };

/** The Meshfront mark: three linked nodes in a purple disc. */
export function logo(x, y, s = 1, ring = C.P, node = C.M) {
  return g(
    `translate(${x} ${y}) scale(${s})`,
    c(0, 0, 20, ring) +
      p('M-9 7L0-9L9 7Z', 'none', `stroke="${node}" stroke-width="3" stroke-linejoin="round"`) +
      c(-9, 7, 4.5, node) +
      c(0, -9, 4.5, node) +
      c(9, 7, 4.5, node),
  );
}
const led = (x, y, col, glow = true) => (glow ? c(x, y, 9, col, 'opacity=".25"') : '') + c(x, y, 4.5, col);
const pill = (x, y, str, bg = C.P, fg = '#fff', w = 0) => {
  const ww = w || str.length * 11 + 22;
  return r(x - ww / 2, y - 15, ww, 30, 15, bg) + t(x, y + 6, 16, fg, str);
};
const nconn = (x, y, s = 1) =>
  g(
    `translate(${x} ${y}) scale(${s})`,
    r(-14, -8, 28, 26, 3, C.metal) + r(-18, -2, 36, 8, 2, '#8E89A0') + r(-9, -26, 18, 20, 2, '#C7C3D2'),
  );
const stub = (x, y, ang = 0, len = 150, col = C.dark) =>
  g(
    `translate(${x} ${y}) rotate(${ang})`,
    r(-10, -22, 20, 24, 4, C.metal) +
      r(-8, -len, 16, len - 18, 8, col) +
      r(-6, -len + 10, 5, len - 40, 2.5, '#ffffff', 'opacity=".14"'),
  );
const rj45 = (x, y) =>
  r(x, y, 44, 36, 4, C.dark) + r(x + 8, y + 6, 28, 18, 2, '#55506a') + r(x + 16, y + 24, 12, 8, 1, C.dark);
const usbc = (x, y) => r(x, y, 36, 13, 6.5, C.dark) + r(x + 6, y + 4, 24, 5, 2.5, '#6d6880');
const coil = (x, y, rx, ry, col, n = 4, sw = 9) => {
  let s = '';
  for (let i = 0; i < n; i++)
    s += `<ellipse cx="${x + i * 7}" cy="${y - i * 5}" rx="${rx}" ry="${ry}" fill="none" stroke="${col}" stroke-width="${sw}"/>`;
  return s;
};
const window = (x, y, w, h, inner) =>
  r(x + 6, y + 10, w, h, 18, '#000', 'opacity=".07"') +
  r(x, y, w, h, 18, '#fff') +
  p(`M${x} ${y + 18}a18 18 0 0 1 18-18h${w - 36}a18 18 0 0 1 18 18v26h-${w}z`, C.ink) +
  c(x + 26, y + 22, 6, '#FF6B6B') +
  c(x + 46, y + 22, 6, '#FFD166') +
  c(x + 66, y + 22, 6, C.M) +
  inner;
const lines = (x, y, ws, col, h = 10, gap = 24) => ws.map((w, i) => r(x, y + i * gap, w, h, h / 2, col)).join('');

// ---------------------------------------------------------------- gateways
export function gwIndoor(o = {}) {
  const band = o.band ? pill(522, 520, o.band.toUpperCase(), C.Pxl, C.P) : '';
  return (
    stub(548, 338, 14, 170) +
    r(200, 350, 400, 240, 34, C.side) +
    r(200, 330, 400, 240, 34, C.body) +
    r(200, 470, 400, 44, 0, C.P) +
    r(200, 470, 400, 6, 0, C.Pd) +
    led(250, 492, C.M) +
    led(282, 492, C.M) +
    led(314, 492, C.Pl, false) +
    led(346, 492, '#ffffff', false) +
    logo(252, 390, 1.15) +
    lines(290, 378, [120, 80], C.side, 12, 22) +
    band
  );
}
export function gwIndoorBack() {
  return (
    r(200, 350, 400, 240, 34, C.side) +
    r(200, 330, 400, 240, 34, C.body) +
    rj45(240, 440) +
    usbc(310, 452) +
    c(392, 458, 16, C.dark) +
    c(392, 458, 6, C.metal) +
    g('translate(470 458)', c(0, 0, 22, C.metal) + c(0, 0, 12, '#8E89A0') + c(0, 0, 4, C.ink)) +
    c(540, 458, 5, C.dark) +
    r(240, 380, 170, 38, 6, C.bg2) +
    lines(252, 390, [100, 60], C.mid, 7, 14) +
    qr(430, 374) +
    t(400, 545, 15, C.mid, 'ETH · USB-C · 12V · ANT · RST')
  );
}
function qr(x, y) {
  let s = r(x, y, 50, 50, 4, '#fff', `stroke="${C.mid}" stroke-width="2"`);
  const bits = [0b10110, 0b01101, 0b11010, 0b00111, 0b10101];
  bits.forEach((row, j) => {
    for (let i = 0; i < 5; i++) if (row & (1 << i)) s += r(x + 6 + i * 8, y + 6 + j * 8, 8, 8, 0, C.ink);
  });
  return s;
}
export function gwOutdoor(o = {}) {
  const band = o.band ? pill(400, 560, o.band.toUpperCase(), C.Pxl, C.P) : '';
  return (
    r(394, 70, 12, 150, 6, '#ECEAF2') +
    r(388, 60, 24, 20, 10, '#F6F5FA') +
    r(386, 200, 28, 40, 6, '#F3F2F8') +
    nconn(400, 252, 1.2) +
    r(270, 280, 30, 60, 8, C.metal) +
    r(500, 280, 30, 60, 8, C.metal) +
    r(270, 520, 30, 60, 8, C.metal) +
    r(500, 520, 30, 60, 8, C.metal) +
    r(290, 278, 240, 336, 26, C.side) +
    r(290, 270, 220, 340, 26, '#F1EFF6') +
    r(290, 270, 220, 60, 26, C.P) +
    r(290, 306, 220, 24, 0, C.P) +
    r(290, 330, 220, 4, 0, C.Pd) +
    logo(400, 300, 0.9, '#fff', C.P) +
    r(310, 350, 180, 3, 1.5, C.side) +
    led(336, 380, C.M) +
    led(364, 380, C.M) +
    led(392, 380, C.Pl, false) +
    r(318, 420, 164, 90, 14, C.bg2) +
    lines(336, 440, [128, 92, 110], C.mid, 8, 20) +
    r(330, 610, 30, 22, 4, C.dark) +
    r(440, 610, 30, 22, 4, C.dark) +
    band
  );
}
export function gwOutdoorBack() {
  return (
    r(300, 120, 200, 500, 20, C.metal) +
    r(318, 140, 164, 460, 14, '#C2BDCE') +
    r(250, 200, 300, 26, 13, 'none', `stroke="${C.mid}" stroke-width="12"`) +
    r(250, 480, 300, 26, 13, 'none', `stroke="${C.mid}" stroke-width="12"`) +
    r(330, 250, 140, 200, 12, '#F1EFF6') +
    lines(350, 276, [100, 70, 90, 60], C.mid, 8, 22) +
    qr(375, 370) +
    g(
      'translate(0 0)',
      r(345, 600, 40, 30, 5, C.dark) +
        r(415, 600, 40, 30, 5, C.dark) +
        r(352, 630, 26, 14, 3, C.P) +
        r(422, 630, 26, 14, 3, C.M),
    )
  );
}
export function gwPocket(o = {}) {
  const band = o.band ? pill(400, 560, o.band.toUpperCase(), C.Pxl, C.P) : '';
  return (
    stub(488, 400, 58, 150, C.P) +
    r(260, 404, 280, 200, 60, C.side) +
    r(260, 388, 280, 196, 60, C.body) +
    `<ellipse cx="400" cy="486" rx="96" ry="62" fill="none" stroke="${C.P}" stroke-width="10"/>` +
    logo(400, 486, 1.5) +
    led(486, 430, C.M) +
    usbc(382, 590) +
    band
  );
}
export function minerBack() {
  let fins = '';
  for (let i = 0; i < 9; i++) fins += r(238 + i * 38, 300, 16, 60, 4, '#4A4560');
  return (
    r(220, 330, 360, 290, 26, '#1E1B29') +
    r(220, 310, 360, 290, 26, C.dark2) +
    fins +
    r(250, 400, 300, 170, 16, '#332F44') +
    rj45(280, 450) +
    c(380, 468, 16, C.ink) +
    c(380, 468, 6, C.metal) +
    usbc(420, 462) +
    g('translate(510 468)', c(0, 0, 20, C.metal) + c(0, 0, 10, '#8E89A0') + c(0, 0, 4, C.ink)) +
    r(280, 520, 170, 30, 5, '#4A4560') +
    r(292, 530, 110, 8, 4, '#6d6880') +
    r(470, 515, 50, 40, 6, C.M) +
    t(495, 541, 16, C.ink, 'OK') +
    t(400, 600, 15, '#8E89A0', 'ETH · 12V · USB · ANT')
  );
}
export function hat(o = {}) {
  let pins = '';
  for (let i = 0; i < 20; i++)
    pins += r(236 + i * 15, 322, 10, 10, 1, '#D9B44A') + r(236 + i * 15, 338, 10, 10, 1, '#D9B44A');
  const band = o.band ? pill(520, 540, o.band.toUpperCase(), C.M, C.ink) : '';
  return (
    r(210, 320, 400, 290, 18, '#1F1638') +
    r(210, 300, 400, 290, 18, '#3A2670') +
    r(226, 314, 310, 40, 4, C.ink) +
    pins +
    r(250, 390, 170, 130, 8, '#C9C5D3') +
    r(262, 402, 146, 106, 4, '#DAD6E2') +
    logo(335, 455, 1.1) +
    r(450, 390, 60, 60, 4, C.ink) +
    r(450, 470, 40, 40, 4, C.ink) +
    c(560, 400, 12, '#D9B44A') +
    c(560, 400, 5, C.ink) +
    p('M560 400C600 400 640 420 660 470', 'none', `stroke="${C.ink}" stroke-width="6"`) +
    nconn(660, 478, 0.8) +
    c(232, 570, 9, '#D9B44A') +
    c(588, 570, 9, '#D9B44A') +
    c(232, 324, 0, '#000') +
    band
  );
}
export function miner(o = {}) {
  let fins = '';
  for (let i = 0; i < 9; i++) fins += r(238 + i * 38, 300, 16, 60, 4, '#4A4560');
  const band = o.band ? pill(520, 560, o.band.toUpperCase(), C.Pxl, C.P) : '';
  const outdoor = o.outdoor;
  return (
    (outdoor ? r(394, 80, 12, 190, 6, '#ECEAF2') + nconn(400, 278, 1.1) : stub(576, 360, 12, 200)) +
    r(220, 330, 360, 290, 26, '#1E1B29') +
    r(220, 310, 360, 290, 26, C.dark2) +
    fins +
    r(250, 400, 300, 150, 16, C.dark) +
    led(280, 430, C.M) +
    lines(310, 424, [120, 80], '#55506a', 10, 24) +
    g('translate(462 486) rotate(-8)', r(-70, -26, 140, 52, 10, C.M) + t(0, 7, 20, C.ink, 'RE-FLASHED')) +
    band
  );
}
export function kit() {
  return (
    g('translate(300 150) scale(.62)', antennaStick({ len: 420 })) +
    r(220, 320, 360, 300, 10, '#E2DCEB') +
    p('M220 320l50-60h260l50 60z', '#EEE9F4') +
    r(220, 400, 360, 50, 0, C.P) +
    logo(400, 425, 0.9, '#fff', C.P) +
    g('translate(110 250) scale(.6)', gwIndoor()) +
    g('translate(420 390) rotate(12) scale(.4)', sdcard({ label: '' }))
  );
}
export function solar() {
  return (
    r(392, 220, 16, 420, 4, C.metal) +
    g(
      'translate(400 220) rotate(-18)',
      r(-190, -130, 380, 230, 10, '#1F2D5C') +
        gridLines(-180, -120, 360, 210, 6, 4, '#3C5AA8') +
        r(-190, 100, 380, 10, 3, C.mid),
    ) +
    g('translate(160 140) scale(.6)', gwOutdoor())
  );
}
function gridLines(x, y, w, h, nx, ny, col) {
  let s = '';
  for (let i = 1; i < nx; i++) s += r(x + (w / nx) * i - 1.5, y, 3, h, 0, col);
  for (let j = 1; j < ny; j++) s += r(x, y + (h / ny) * j - 1.5, w, 3, 0, col);
  return s;
}

// ---------------------------------------------------------------- antennas
export function antennaStick(o = {}) {
  const len = o.len || 420,
    col = o.col || '#F4F3F8',
    w = o.w || 26;
  const top = 600 - len;
  return (
    g(
      `rotate(${o.upright ? 0 : -28} 400 420)`,
      r(400 - w / 2, top, w, len - 60, w / 2, col) +
        r(400 - w / 2 + 5, top + 16, 6, len - 100, 3, '#fff') +
        r(400 - w / 2, top, w, len - 60, w / 2, 'none', `stroke="${C.side}" stroke-width="2"`) +
        r(388 - w / 2, 540, w + 24, 70, 8, C.metal) +
        r(382 - w / 2, 560, w + 36, 8, 2, '#8E89A0') +
        nconn(400, 624, 1) +
        r(400 - w / 2, top + 40, w, 10, 0, C.P),
    ) + (o.gain ? pill(560, 560, o.gain, C.P, '#fff') : '')
  );
}
export function antennaStub(o = {}) {
  return (
    g(
      `rotate(${o.upright ? 0 : -30} 400 420)`,
      r(386, 500, 28, 90, 6, C.metal) +
        r(382, 480, 36, 30, 14, '#3E3950') +
        r(380, 140, 40, 360, 20, C.dark) +
        r(388, 160, 7, 300, 3.5, '#fff', 'opacity=".14"') +
        r(390, 590, 20, 24, 3, '#D9B44A'),
    ) + (o.gain ? pill(560, 560, o.gain, C.P, '#fff') : '')
  );
}
export function antennaWindow(o = {}) {
  return (
    p(
      'M400 596C300 640 180 600 200 540S340 520 300 470',
      'none',
      `stroke="${C.dark}" stroke-width="8" stroke-linecap="round"`,
    ) +
    `<ellipse cx="400" cy="600" rx="110" ry="30" fill="${C.dark}"/>` +
    r(290, 560, 220, 40, 20, C.dark2) +
    r(300, 566, 200, 10, 5, '#5A5470') +
    r(388, 170, 24, 400, 12, '#F4F3F8', `stroke="${C.side}" stroke-width="2"`) +
    r(388, 220, 24, 10, 0, C.P) +
    c(400, 170, 14, '#F4F3F8') +
    (o.gain ? pill(560, 520, o.gain, C.P, '#fff') : '')
  );
}
export function groundPlane(o = {}) {
  const rad = (a) => g(`rotate(${a} 400 420)`, r(396, 420, 8, 210, 4, C.metal));
  return (
    r(395, 110, 10, 310, 5, C.metal) +
    c(400, 110, 8, C.metal) +
    rad(-35) +
    rad(35) +
    rad(-70) +
    rad(70) +
    r(372, 400, 56, 48, 8, '#8E89A0') +
    r(380, 440, 40, 18, 3, C.P) +
    nconn(400, 470, 1) +
    (o.gain ? pill(580, 380, o.gain, C.P, '#fff') : '')
  );
}

// ---------------------------------------------------------------- accessories
export function cableCoil(o = {}) {
  const col = o.col || C.dark;
  return (
    coil(380, 470, 170, 100, col, 4, o.sw || 12) +
    p('M530 480C600 520 620 560 640 600', 'none', `stroke="${col}" stroke-width="${o.sw || 12}"`) +
    g('translate(646 612) rotate(-30)', nconn(0, 0, 1)) +
    p('M240 450C180 480 170 540 160 590', 'none', `stroke="${col}" stroke-width="${o.sw || 12}"`) +
    g('translate(158 600) rotate(10)', o.end2 === 'rj45' ? rjPlug(0, 0) : nconn(0, 0, 1)) +
    (o.label ? pill(400, 300, o.label, C.P, '#fff') : '')
  );
}
const rjPlug = (x, y) =>
  g(
    `translate(${x} ${y})`,
    r(-18, -6, 36, 46, 5, '#D8E8F6', 'opacity=".9"') + r(-12, 6, 24, 14, 2, '#D9B44A') + r(-10, -30, 20, 26, 4, C.P),
  );
export function pigtail() {
  return (
    p('M250 520C330 360 470 620 560 420', 'none', `stroke="${C.dark}" stroke-width="12" stroke-linecap="round"`) +
    g('translate(240 540) rotate(200)', nconn(0, 0, 1.6) + r(-26, 14, 52, 10, 3, '#8E89A0')) +
    g('translate(568 402) rotate(30)', r(-12, -40, 24, 44, 4, '#D9B44A') + r(-16, -20, 32, 14, 2, '#C59E32'))
  );
}
export function arrestor() {
  return (
    r(260, 420, 280, 90, 16, C.metal) +
    r(280, 410, 240, 14, 4, '#C7C3D2') +
    r(300, 430, 200, 8, 4, '#fff', 'opacity=".4"') +
    g('translate(240 465) rotate(-90)', nconn(0, 0, 1.5)) +
    g('translate(560 465) rotate(90)', nconn(0, 0, 1.5)) +
    r(380, 510, 40, 70, 6, '#8E89A0') +
    c(400, 560, 10, C.dark) +
    r(300, 480, 60, 12, 6, C.P) +
    p('M400 580C420 610 470 620 520 610', 'none', `stroke="#2E9E4F" stroke-width="8"`)
  );
}
export function poleBracket() {
  const ubolt = (y) =>
    p(`M320 ${y}v-50a80 80 0 0 1 160 0v50`, 'none', `stroke="${C.metal}" stroke-width="16"`) +
    r(300, y, 40, 16, 3, '#8E89A0') +
    r(460, y, 40, 16, 3, '#8E89A0');
  return (
    r(280, 220, 240, 400, 14, '#C7C3D2') +
    r(300, 240, 200, 360, 10, '#D8D5E0') +
    c(330, 260, 8, C.mid) +
    c(470, 260, 8, C.mid) +
    c(330, 580, 8, C.mid) +
    c(470, 580, 8, C.mid) +
    ubolt(330) +
    ubolt(520) +
    r(376, 400, 48, 60, 6, C.P)
  );
}
export function wallBracket() {
  return (
    p('M250 230h80v300h220v80H250z', '#C7C3D2') +
    p('M270 250h40v300h220v40H270z', '#D8D5E0') +
    c(290, 300, 10, C.dark) +
    c(290, 420, 10, C.dark) +
    c(420, 570, 10, C.dark) +
    c(500, 570, 10, C.dark) +
    r(330, 520, 220, 10, 0, C.P)
  );
}
export function enclosure(o = {}) {
  return (
    r(230, 300, 340, 300, 20, '#CFCBD9') +
    r(230, 280, 340, 300, 20, '#ECEAF2') +
    r(230, 280, 340, 60, 20, '#E0DCE8') +
    r(230, 320, 340, 20, 0, '#E0DCE8') +
    r(230, 338, 340, 4, 0, C.mid) +
    r(560, 360, 24, 40, 6, C.metal) +
    r(560, 500, 24, 40, 6, C.metal) +
    r(280, 600, 34, 26, 4, C.dark) +
    r(340, 600, 34, 26, 4, C.dark) +
    r(426, 600, 34, 26, 4, C.dark) +
    r(486, 600, 34, 26, 4, C.dark) +
    logo(400, 450, 1.2) +
    (o.label ? pill(400, 530, o.label, C.P, '#fff') : '')
  );
}
export function poe(o = {}) {
  const body = o.col || C.dark;
  return (
    p('M560 470C640 470 660 560 620 620', 'none', `stroke="${C.dark}" stroke-width="10"`) +
    r(240, 400, 320, 170, 22, '#1A1724') +
    r(240, 384, 320, 170, 22, body) +
    rj45(280, 470) +
    rj45(360, 470) +
    r(290, 450, 24, 6, 3, C.M) +
    r(370, 450, 24, 6, 3, C.P) +
    led(500, 430, C.M) +
    logo(470, 500, 0.8) +
    (o.label ? pill(400, 350, o.label, C.P, '#fff') : '')
  );
}
export function psu() {
  return (
    p('M500 470C600 480 620 560 580 620', 'none', `stroke="#F4F3F8" stroke-width="12"`) +
    p('M500 470C600 480 620 560 580 620', 'none', `stroke="${C.side}" stroke-width="2"`) +
    g(
      'translate(578 628) rotate(20)',
      r(-16, -10, 32, 34, 6, '#F4F3F8', `stroke="${C.side}" stroke-width="2"`) + r(-8, 22, 16, 10, 3, C.metal),
    ) +
    r(260, 360, 240, 240, 40, C.side) +
    r(260, 350, 240, 232, 40, C.body) +
    r(316, 300, 14, 60, 7, C.metal) +
    r(430, 300, 14, 60, 7, C.metal) +
    logo(380, 470, 1.3) +
    t(380, 540, 16, C.mid, '5V ⎓ 3A')
  );
}
export function sdcard(o = {}) {
  const label = o.label === undefined ? '32GB' : o.label;
  return (
    p(
      'M300 230h160l60 60v330a14 14 0 0 1-14 14H300a14 14 0 0 1-14-14V244a14 14 0 0 1 14-14z',
      '#1E1B29',
      'transform="translate(10 10)"',
    ) +
    p('M300 230h160l60 60v330a14 14 0 0 1-14 14H300a14 14 0 0 1-14-14V244a14 14 0 0 1 14-14z', C.dark) +
    r(304, 246, 26, 60, 3, '#D9B44A') +
    r(342, 246, 26, 60, 3, '#D9B44A') +
    r(380, 246, 26, 60, 3, '#D9B44A') +
    r(418, 246, 26, 60, 3, '#D9B44A') +
    r(302, 340, 204, 270, 10, o.col || C.P) +
    logo(404, 430, 1.8, '#fff', o.col || C.P) +
    (label ? t(404, 530, 36, '#fff', label) : '') +
    (o.sub ? t(404, 580, 20, C.M, o.sub) : '')
  );
}
export function tape() {
  return (
    `<ellipse cx="400" cy="500" rx="180" ry="120" fill="#15131C"/><ellipse cx="400" cy="480" rx="180" ry="120" fill="${C.dark}"/>` +
    `<ellipse cx="400" cy="480" rx="84" ry="56" fill="${C.bg}"/><ellipse cx="400" cy="480" rx="84" ry="56" fill="none" stroke="${C.P}" stroke-width="14"/>` +
    p('M560 540C600 580 620 600 640 640', 'none', `stroke="${C.dark}" stroke-width="30"`)
  );
}
export function glands() {
  const gl = (x, y, s) =>
    g(
      `translate(${x} ${y}) scale(${s})`,
      r(-40, 0, 80, 40, 4, '#3A3549') +
        p('M-52 0l12-36h80l12 36z', C.dark) +
        r(-30, -90, 60, 56, 8, C.dark2) +
        r(-18, -100, 36, 14, 6, '#55506a') +
        r(-30, 40, 60, 46, 2, '#8E89A0'),
    );
  return (
    gl(280, 470, 1) +
    gl(420, 500, 1.15) +
    gl(540, 460, 0.85) +
    c(300, 610, 20, 'none', `stroke="${C.P}" stroke-width="8"`) +
    c(360, 620, 16, 'none', `stroke="${C.P}" stroke-width="8"`)
  );
}
export function gps() {
  return (
    p('M470 500C560 520 600 580 640 600', 'none', `stroke="${C.dark}" stroke-width="8"`) +
    g('translate(650 606) rotate(60)', r(-10, -16, 20, 30, 3, '#D9B44A')) +
    `<ellipse cx="380" cy="520" rx="130" ry="56" fill="#15131C"/>` +
    p('M250 500a130 70 0 0 1 260 0v20a130 56 0 0 1-260 0z', C.dark) +
    `<ellipse cx="380" cy="500" rx="130" ry="56" fill="${C.dark2}"/>` +
    logo(380, 498, 1.2) +
    r(340, 440, 80, 6, 3, '#55506a')
  );
}
export function mast() {
  return (
    r(380, 120, 40, 520, 4, '#D8D5E0') +
    r(372, 300, 56, 340, 4, '#C7C3D2') +
    r(364, 460, 72, 180, 4, C.metal) +
    r(360, 296, 80, 16, 4, C.P) +
    r(352, 456, 96, 16, 4, C.P) +
    r(330, 620, 140, 24, 6, '#8E89A0') +
    p('M400 140L250 640M400 140L550 640', 'none', `stroke="${C.mid}" stroke-width="3" stroke-dasharray="10 8"`)
  );
}
export function conversionKit() {
  return (
    r(170, 300, 460, 320, 30, '#2F2A40') +
    r(170, 290, 460, 320, 30, C.dark2) +
    p('M170 330a30 30 0 0 1 30-40h400a30 30 0 0 1 30 40', 'none', `stroke="${C.P}" stroke-width="10"`) +
    g('translate(90 190) scale(.55)', sdcard({ label: '' })) +
    r(420, 360, 160, 100, 8, '#7FD1C1') +
    r(440, 380, 120, 60, 4, '#9BE2D4') +
    g('translate(470 470) rotate(-20)', r(0, 0, 140, 22, 8, C.P) + r(140, 6, 80, 10, 2, C.metal)) +
    logo(560, 560, 0.9)
  );
}

// ---------------------------------------------------------------- software
export function osImage() {
  return (
    window(
      150,
      170,
      500,
      380,
      logo(360, 320, 3.2) + t(360, 450, 40, C.ink, 'Meshfront OS') + lines(260, 480, [200], C.Pl, 12),
    ) + g('translate(420 330) rotate(12) scale(.5)', sdcard({ label: '', col: C.M }))
  );
}
export function terminal() {
  const ws = [
    [C.M, 180],
    [C.mid, 300],
    [C.mid, 240],
    [C.M, 140],
    [C.mid, 280],
    [C.Pl, 200],
    [C.M, 120],
  ];
  return (
    r(156, 190, 500, 380, 18, '#000', 'opacity=".07"') +
    r(150, 180, 500, 380, 18, C.ink) +
    c(176, 204, 6, '#FF6B6B') +
    c(196, 204, 6, '#FFD166') +
    c(216, 204, 6, C.M) +
    ws.map(([col, w], i) => r(180, 246 + i * 38, 16, 12, 2, C.P) + r(206, 246 + i * 38, w, 12, 6, col)).join('') +
    r(206, 512, 14, 22, 1, C.M)
  );
}
export function flasher(o = {}) {
  return window(
    130,
    170,
    540,
    400,
    logo(230, 270, 1.6) +
      lines(280, 254, [200, 130], C.side, 14, 26) +
      r(180, 340, 140, 130, 16, C.bg2) +
      g('translate(178 262) scale(.3)', sdcard({ label: '' })) +
      p('M340 405h60', 'none', `stroke="${C.mid}" stroke-width="8" stroke-linecap="round"`) +
      p('M392 390l16 15-16 15', 'none', `stroke="${C.mid}" stroke-width="8" stroke-linecap="round"`) +
      r(430, 340, 190, 130, 16, C.bg2) +
      g('translate(440 280) scale(.24)', miner()) +
      r(180, 496, 440, 18, 9, C.bg2) +
      r(180, 496, o.progress || 300, 18, 9, C.M) +
      r(500, 530, 120, 24, 12, C.P),
  );
}
export function support() {
  return (
    g(
      'translate(0 0)',
      r(160, 200, 340, 180, 40, C.P) +
        p('M220 370l-20 70 80-60z', C.P) +
        lines(200, 250, [240, 180, 200], '#fff', 16, 34) +
        r(300, 360, 340, 170, 40, C.M) +
        p('M580 520l30 70-90-60z', C.M) +
        lines(340, 410, [220, 260, 150], C.ink, 16, 34),
    ) + logo(610, 240, 1.6)
  );
}
export function service() {
  const row = (y, done) =>
    c(250, y, 18, done ? C.M : C.bg2) +
    (done ? p(`M241 ${y}l7 7 12-14`, 'none', `stroke="${C.ink}" stroke-width="5" stroke-linecap="round"`) : '') +
    r(284, y - 7, done ? 240 : 200, 14, 7, done ? C.mid : C.side);
  return (
    window(170, 170, 460, 420, row(270, 1) + row(330, 1) + row(390, 1) + row(450, 0) + row(510, 0)) +
    logo(600, 560, 2.2)
  );
}

// ---------------------------------------------------------------- swag
const edge = (s) => (s === SWAG.white ? 'stroke="#C9C4D6" stroke-width="4" stroke-linejoin="round"' : '');
export function tshirt(o = {}) {
  const s = SWAG[o.color || 'black'];
  const back = o.back;
  return (
    p(
      'M300 190l-130 60-60 130 90 40 30-50v330h340V370l30 50 90-40-60-130-130-60c-10 40-50 60-100 60s-90-20-100-60z',
      s.d,
      'transform="translate(6 10)"',
    ) +
    p(
      'M300 190l-130 60-60 130 90 40 30-50v330h340V370l30 50 90-40-60-130-130-60c-10 40-50 60-100 60s-90-20-100-60z',
      s.c,
      edge(s),
    ) +
    p(
      back ? 'M300 190c20 14 60 24 100 24s80-10 100-24' : 'M300 190c10 40 50 60 100 60s90-20 100-60',
      'none',
      `stroke="${s.d}" stroke-width="12"`,
    ) +
    (back
      ? logo(400, 420, 4.2, s.print, s.c) + t(400, 560, 30, s.print, 'MESHFRONT')
      : logo(470, 340, 1.7, s.print, s.c))
  );
}
export function hoodie(o = {}) {
  const s = SWAG[o.color || 'black'];
  const body = 'M290 220l-120 50-70 250 90 30 40-150v300h340V400l40 150 90-30-70-250-120-50z';
  return (
    p(body, s.d, 'transform="translate(6 10)"') +
    p(body, s.c) +
    p('M300 230c0-80 40-120 100-120s100 40 100 120c-20 30-60 40-100 40s-80-10-100-40z', s.d) +
    (o.back
      ? logo(400, 440, 4, s.print, s.c)
      : p('M330 240c10-60 30-90 70-90s60 30 70 90c-20 16-50 22-70 22s-50-6-70-22z', '#15131C', 'opacity=".55"') +
        r(380, 270, 4, 70, 2, s.print) +
        r(416, 270, 4, 70, 2, s.print) +
        p('M320 560h160l20 90H300z', s.d, 'opacity=".5"') +
        logo(400, 420, 2.1, s.print, s.c))
  );
}
export function cap(o = {}) {
  const s = SWAG[o.color || 'black'];
  return (
    p('M240 470c0-120 70-200 170-200s170 80 170 200z', s.d, 'transform="translate(6 10)"') +
    p('M240 470c0-120 70-200 170-200s170 80 170 200z', s.c, edge(s)) +
    p('M410 270c-40 40-50 120-50 200', 'none', `stroke="${s.d}" stroke-width="5"`) +
    p('M410 270c40 40 50 120 50 200', 'none', `stroke="${s.d}" stroke-width="5"`) +
    c(410, 272, 12, s.d) +
    p('M180 470c60-20 200-20 400 0 40 4 80 30 60 50-120-20-320-30-460-20z', s.d) +
    p('M240 470h340', 'none', `stroke="${s.d}" stroke-width="8"`) +
    logo(410, 380, 1.9, s.print, s.c)
  );
}
export function beanie(o = {}) {
  const s = SWAG[o.color || 'black'];
  let ribs = '';
  for (let i = 0; i < 11; i++) ribs += r(252 + i * 28, 470, 8, 110, 4, s.d, 'opacity=".5"');
  return (
    c(400, 190, 42, s.d) +
    c(400, 186, 40, s.c) +
    p('M250 480c0-160 60-250 150-250s150 90 150 250z', s.d, 'transform="translate(5 8)"') +
    p('M250 480c0-160 60-250 150-250s150 90 150 250z', s.c, edge(s)) +
    r(232, 460, 336, 130, 30, s.d) +
    r(232, 452, 336, 130, 30, s.c, edge(s)) +
    ribs +
    r(350, 490, 100, 56, 10, C.P === s.c ? '#fff' : C.P) +
    logo(400, 518, 1, C.P === s.c ? C.P : '#fff', C.P === s.c ? C.M : C.P)
  );
}
export function stickers() {
  const hex = (x, y, s, fill, inner) =>
    g(
      `translate(${x} ${y}) scale(${s})`,
      p('M0-100l87 50v100L0 100l-87-50V-50z', '#000', 'opacity=".08" transform="translate(6 8)"') +
        p('M0-100l87 50v100L0 100l-87-50V-50z', fill) +
        inner,
    );
  return (
    hex(300, 330, 1.2, C.P, logo(0, 0, 3, C.P, C.M)) +
    hex(510, 360, 1, '#fff', logo(0, 0, 3)) +
    hex(400, 530, 1.05, C.M, logo(0, 0, 3, C.M, C.P)) +
    g('translate(220 540) rotate(-12)', r(-70, -30, 140, 60, 30, C.ink) + t(0, 9, 24, C.M, 'MESH')) +
    c(590, 540, 60, C.ink) +
    c(590, 540, 44, 'none', `stroke="${C.M}" stroke-width="6"`) +
    t(590, 550, 26, C.M, 'KDA')
  );
}
export function mug(o = {}) {
  const s = SWAG[o.color || 'white'];
  const hx = o.back ? 220 : 560;
  return (
    c(hx, 430, 80, 'none', `stroke="${s.d}" stroke-width="34"`) +
    r(240, 260, 300, 360, 30, s.d, 'transform="translate(6 8)"') +
    r(240, 260, 300, 360, 30, s.c, edge(s)) +
    `<ellipse cx="390" cy="262" rx="150" ry="24" fill="${s.d}"/><ellipse cx="390" cy="262" rx="134" ry="16" fill="#3B2A1E"/>` +
    r(240, 560, 300, 22, 0, C.P) +
    (o.back
      ? t(390, 410, 40, C.P, 'RUN') + t(390, 456, 40, C.P, 'THE') + t(390, 502, 40, C.P, 'MESH')
      : logo(390, 420, 3.3, s.print, s.c))
  );
}
export function tote(o = {}) {
  const s = SWAG[o.color || 'white'];
  const front = logo(400, 470, 3.6, s.print === '#FFFFFF' ? C.P : s.print, s.c) + t(400, 600, 26, C.P, 'RUN THE MESH');
  const back =
    r(250, 340, 130, 110, 6, s.d, 'opacity=".6"') +
    r(250, 340, 130, 8, 0, s.d) +
    g(
      'translate(500 560)',
      r(-50, -22, 100, 44, 6, C.P) + logo(-26, 0, 0.7, '#fff', C.P) + r(-4, -4, 40, 8, 4, '#fff'),
    );
  return (
    p('M320 320c0-130 160-130 160 0', 'none', `stroke="${s.d}" stroke-width="22"`) +
    r(220, 300, 360, 340, 10, s.d, 'transform="translate(6 8)"') +
    r(220, 300, 360, 340, 10, s.c, edge(s)) +
    r(220, 300, 360, 20, 0, s.d) +
    (o.back ? back : front)
  );
}
export function pin() {
  return (
    g(
      'translate(400 420)',
      p('M0-200l173 100v200L0 200l-173-100V-100z', '#B08A2A', 'transform="translate(8 12)"') +
        p('M0-200l173 100v200L0 200l-173-100V-100z', '#D9B44A') +
        p('M0-176l152 88v176L0 176l-152-88V-88z', C.P) +
        logo(0, 0, 6, C.P, C.M),
    ) + c(400, 660, 0, '#000')
  );
}
export function socks(o = {}) {
  const s = SWAG[o.color || 'black'];
  const sock = (x, y, a) =>
    g(
      `translate(${x} ${y}) rotate(${a})`,
      p(
        'M-50-220h100v240c0 60-30 90-90 90h-90c-40 0-50-60 0-70l60-10c20-4 20-20 20-40z',
        s.d,
        'transform="translate(5 8)"',
      ) +
        p('M-50-220h100v240c0 60-30 90-90 90h-90c-40 0-50-60 0-70l60-10c20-4 20-20 20-40z', s.c, edge(s)) +
        r(-50, -220, 100, 40, 0, s.d) +
        r(-50, -150, 100, 14, 0, C.P) +
        r(-50, -128, 100, 14, 0, C.M) +
        logo(0, -60, 1.2, s.print, s.c),
    );
  return sock(380, 440, -6) + sock(540, 460, 8);
}
export function lanyard() {
  return (
    p(
      'M300 160c-60 200 20 360 100 420M500 160c60 200-20 360-100 420',
      'none',
      `stroke="${C.P}" stroke-width="34" stroke-linecap="round"`,
    ) +
    p(
      'M300 160c-60 200 20 360 100 420M500 160c60 200-20 360-100 420',
      'none',
      `stroke="${C.M}" stroke-width="4" stroke-dasharray="14 22"`,
    ) +
    r(370, 560, 60, 40, 8, C.metal) +
    c(400, 630, 26, 'none', `stroke="${C.metal}" stroke-width="10"`)
  );
}

export const KINDS = {
  gwIndoor,
  gwOutdoor,
  gwPocket,
  hat,
  miner,
  kit,
  solar,
  antennaStick,
  antennaStub,
  antennaWindow,
  groundPlane,
  cableCoil,
  pigtail,
  arrestor,
  poleBracket,
  wallBracket,
  enclosure,
  poe,
  psu,
  sdcard,
  tape,
  glands,
  gps,
  mast,
  conversionKit,
  osImage,
  terminal,
  flasher,
  support,
  service,
  tshirt,
  hoodie,
  cap,
  beanie,
  stickers,
  mug,
  tote,
  pin,
  socks,
  lanyard,
};
export const BACKS = {
  gwIndoor: gwIndoorBack,
  gwOutdoor: gwOutdoorBack,
  gwPocket: gwIndoorBack,
  miner: minerBack,
  tshirt: (o) => tshirt({ ...o, back: 1 }),
  hoodie: (o) => hoodie({ ...o, back: 1 }),
  mug: (o) => mug({ ...o, back: 1 }),
  tote: (o) => tote({ ...o, back: 1 }),
};
