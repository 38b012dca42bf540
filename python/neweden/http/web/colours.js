// One palette: the colours of the styles, as the service's picture gives them.
// Each style's colour as the picture gives it (GET /web/colours.json: the server reads the
// name as the decoder does, "Gótico" is gothic, and picks the picture's colour): one palette
// for the grid, the picture and its legend. A style not asked yet is asked for with the
// others of the drawing; when the answer comes, a "colours" event on the document tells
// the grid and the card form to draw again.
const colours = new Map(); // the name as written -> "#rrggbb", or null (no name even folded)
const asked = new Set();

export function askColours(styles) {
  const wanted = [...styles].filter((s) => !colours.has(s) && !asked.has(s)).slice(0, 64);
  if (!wanted.length) return;
  for (const style of wanted) asked.add(style);
  const query = new URLSearchParams(wanted.map((style) => ["style", style]));
  fetch(`/web/colours.json?${query}`)
    .then((response) => (response.ok ? response.json() : {}))
    .then((found) => {
      for (const style of wanted) {
        asked.delete(style);
        if (Object.hasOwn(found, style)) colours.set(style, found[style]);
      }
      document.dispatchEvent(new Event("colours"));
    })
    .catch(() => wanted.forEach((style) => asked.delete(style)));
}

// A style's colour ("" until the service has said it, or for none).
export function styleColour(style) {
  if (typeof style !== "string") return "";
  askColours([style]);
  return colours.get(style) || "";
}
