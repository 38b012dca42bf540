// The grid's size and its rulers: the row and column numbers beside and above it, and the
// zoom of its cells (buttons, a pinch of two fingers, fit to the screen), kept on the device.

// The row and column numbers beside and above the grid (the messages say "row 2, column 1").
export function rulers(b) {
  const numbers = (id, from, to, template) => {
    const ruler = document.getElementById(id);
    if (!ruler) return;
    const count = to - from + 1;
    ruler.style[template] = `repeat(${count}, calc(var(--cell) * var(--zoom)))`;
    const same = ruler.children.length === count && ruler.dataset.from === String(from);
    if (same) return;
    ruler.dataset.from = String(from);
    ruler.replaceChildren(
      ...Array.from({ length: count }, (_, k) =>
        Object.assign(document.createElement("span"), { textContent: String(from + k) }),
      ),
    );
  };
  numbers("ruler-cols", b.left, b.right, "gridTemplateColumns");
  numbers("ruler-rows", b.top, b.bottom, "gridTemplateRows");
}

// The grid's size: a factor of the cell's size (--zoom), set with the buttons, a pinch on a
// touch screen, or to fit the screen; kept on the device.
const ZOOM = { least: 0.5, most: 2, step: 1.25 };
let zoom = stored() || 1;

function stored() {
  try {
    return Number(localStorage.getItem("neweden.zoom"));
  } catch {
    return 0; // storage refused: the usual size
  }
}

export function setZoom(factor) {
  zoom = Math.min(Math.max(factor, ZOOM.least), ZOOM.most);
  document.getElementById("grid-wrap")?.style.setProperty("--zoom", zoom.toFixed(3));
  try {
    localStorage.setItem("neweden.zoom", String(zoom));
  } catch {
    // storage refused: the size is kept for this visit only
  }
}

// The zoom that makes the whole grid as wide as its box (at most the usual size): the
// cells scale, the row numbers and the gaps do not, so a few steps close in on it.
function fitZoom() {
  const wrap = document.getElementById("grid-wrap");
  const area = wrap?.querySelector(".grid-area");
  if (!wrap || !area) return;
  setZoom(1);
  for (let step = 0; step < 4 && area.scrollWidth > wrap.clientWidth; step++) {
    setZoom((zoom * (wrap.clientWidth - 2)) / area.scrollWidth);
  }
}

export function attach() {
  const wrap = document.getElementById("grid-wrap");
  setZoom(zoom);
  document.getElementById("zoom-in").addEventListener("click", () => setZoom(zoom * ZOOM.step));
  document.getElementById("zoom-out").addEventListener("click", () => setZoom(zoom / ZOOM.step));
  document.getElementById("zoom-fit").addEventListener("click", fitZoom);
  pinched(wrap, () => zoom, setZoom);
}

// A pinch of two fingers on `element` zooms what it shows: `set(get() * how much farther
// apart the fingers are than when the second came down)`. (The grid and a photo under
// review.)
export function pinched(element, get, set) {
  const touches = new Map(); // pointerId -> [x, y], the fingers on the element
  let pinch = null; // {apart, zoom} when two fingers came down
  const apart = () => {
    const [a, b] = [...touches.values()];
    return Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
  };
  element.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    touches.set(event.pointerId, [event.clientX, event.clientY]);
    if (touches.size === 2) pinch = { apart: apart(), zoom: get() };
  });
  element.addEventListener("pointermove", (event) => {
    if (!touches.has(event.pointerId)) return;
    touches.set(event.pointerId, [event.clientX, event.clientY]);
    if (pinch && touches.size === 2) set((pinch.zoom * apart()) / pinch.apart);
  });
  const lifted = (event) => {
    touches.delete(event.pointerId);
    if (touches.size < 2) pinch = null;
  };
  element.addEventListener("pointerup", lifted);
  element.addEventListener("pointercancel", lifted);
}
