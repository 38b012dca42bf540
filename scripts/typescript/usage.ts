// A tiny client of the neweden API, type-checked against the types openapi-typescript
// generates from /openapi.json (scripts/typescript_client.sh). Operations are named by their
// operationId, not by their path.
import type { components, operations } from "./neweden";

type ScoreGame = operations["scoreGame"];
type Game = ScoreGame["requestBody"]["content"]["application/json"];
type Report = ScoreGame["responses"][200]["content"]["application/json"];
type Problem = ScoreGame["responses"][422]["content"]["application/problem+json"];

export const game: Game = {
  mode: "military",
  players: [{ name: "Ana", city: [{ row: 0, col: 0, card: "atomic-waste" }] }],
};

export function totals(report: Report): Record<string, number> {
  const out: Record<string, number> = {};
  for (const player of report.players) {
    out[player.name] = player.score.total;
  }
  return out;
}

export function firstProblem(problem: Problem): string | undefined {
  return problem.errors[0]?.code;
}

export async function scoreGame(base: string, body: Game): Promise<Report> {
  const answer = await fetch(`${base}/v1/score`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await answer.json()) as Report;
}

export type Validation = operations["validateGame"]["responses"][200]["content"]["application/json"];
export type Batch = operations["scoreBatch"]["requestBody"]["content"]["application/json"];
export type Health = operations["health"]["responses"][200]["content"]["application/json"];
export type Cell = components["schemas"]["ProblemItem"]["cells"][number];
export const cell: Cell = [0, 5];

// @ts-expect-error: operations are named by operationId, never by path
export type ByPath = operations["post_v1_score"];

// @ts-expect-error: a report's `valid` is a boolean
export const wrong: Report["valid"] = "yes";
