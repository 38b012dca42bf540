// The public HTTP API, as the page calls it: every answer in the page's language.
import { lang } from "./i18n.js";

function url(path, params = {}) {
  const query = new URLSearchParams({ ...params, lang: lang() });
  return `${path}?${query}`;
}

// POST a JSON body; resolves to {ok, status, body} (body: JSON, or text for an SVG).
export async function post(path, body, params = {}) {
  const response = await fetch(url(path, params), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const type = response.headers.get("content-type") || "";
  const answer = type.includes("json") ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, body: answer };
}

// Why an answer of post() is not ok: its problem's detail, or its status.
export function detailOf(answer) {
  return answer.body?.detail ?? String(answer.status);
}

// Why a fetch's response is not ok: its problem's detail, or its status when it holds none
// (a proxy's page, a server's plain text).
export async function problemOf(response) {
  try {
    return (await response.json()).detail ?? String(response.status);
  } catch {
    return `${response.status} ${response.statusText}`.trim();
  }
}

// fetch(path, init), the response when it is ok; else an Error saying why (problemOf).
export async function fetchOk(path, init = {}) {
  const response = await fetch(path, init);
  if (!response.ok) throw new Error(await problemOf(response));
  return response;
}

export async function get(path, params = {}) {
  const response = await fetch(url(path, params));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

// The manual's final-scoring example: the example of POST /v1/score in the API's document.
export async function exampleGame() {
  const document = await get("/openapi.json");
  const body = document.paths["/v1/score"].post.requestBody.content["application/json"];
  return body.examples.example.value;
}
