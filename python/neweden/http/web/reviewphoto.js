// The photo of a game under review, beside the grid: larger or smaller by the buttons, the
// wheel over it (with Ctrl or Alt), a pinch or + and - on it; turned by 90°; a photo the
// page cannot show said with the service's reason.
import { problemOf } from "./api.js";
import { t } from "./i18n.js";
import { pinched } from "./zoom.js";

const $ = (id) => document.getElementById(id);
let turn = 0;
let size = 1;
let pickedUrl = null;

function photoStyle() {
  const photo = $("review-photo");
  photo.style.width = `${100 * size}%`;
  photo.style.transform = turn ? `rotate(${turn * 90}deg)` : "";
}

function zoom(factor) {
  sized(size * factor);
}

function sized(factor) {
  size = Math.min(Math.max(factor, 0.5), 4);
  photoStyle();
}

// The game's photo from the service (`src`; none: the game names none), described by `alt`.
export function showPhoto(src, alt) {
  const photo = $("review-photo");
  $("review-no-photo").hidden = Boolean(src);
  photo.hidden = !src;
  if (src) {
    photo.src = src;
    photo.alt = alt;
  } else {
    photo.removeAttribute("src"); // (a photo picked before is not this game's)
  }
  photoStyle();
}

// A photo picked in this browser (a File), shown at once.
export function showPicked(file) {
  if (pickedUrl) URL.revokeObjectURL(pickedUrl);
  pickedUrl = URL.createObjectURL(file);
  showPhoto(pickedUrl, $("review-photo").alt);
}

// The photo the page could not show: why, as the service says it (a HEIC photo without the
// extra that reads it, a photo gone from the folder).
async function failed() {
  const photo = $("review-photo");
  if (photo.hidden || photo.src.startsWith("blob:")) return;
  let why;
  try {
    const response = await fetch(photo.src);
    why = response.ok ? t("review_photo_unreadable") : await problemOf(response);
  } catch (error) {
    why = error.message;
  }
  $("review-status").textContent = t("review_photo_failed", { reason: why });
}

export function attachPhoto() {
  $("review-photo").addEventListener("error", failed);
  $("review-rotate").addEventListener("click", () => {
    turn = (turn + 1) % 4;
    photoStyle();
  });
  $("review-larger").addEventListener("click", () => zoom(1.25));
  $("review-smaller").addEventListener("click", () => zoom(1 / 1.25));
  const wrap = $("review-photo-wrap");
  pinched(wrap, () => size, sized);
  wrap.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey && !event.altKey) return; // a plain wheel scrolls the photo
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.25 : 1 / 1.25);
    },
    { passive: false },
  );
  wrap.addEventListener("keydown", (event) => {
    if (event.key === "+" || event.key === "=") zoom(1.25);
    else if (event.key === "-") zoom(1 / 1.25);
    else if (event.key === "r") $("review-rotate").click();
  });
}
