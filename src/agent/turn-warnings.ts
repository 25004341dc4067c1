// Staged warnings as a run nears its turn limit: CodeCraft warns at turns 10, 13 and 15 of 16; Keel scales
// that to any --max-turns as about 60 %, 80 % and the last turn. The model reads a note with the request of
// that turn; the user sees a `warning` event.

export interface TurnWarning {
  /** What the model reads with the request of the turn. */
  note: string;
  /** What the user sees. */
  message: string;
}

type Stage = 'wrap-up' | 'finish' | 'last';

/**
 * The turns that warn, by stage. Below 4 turns only the last turn warns (stages would collide); a run of one
 * turn gets none, since its only request is the user's message. When two stages fall on the same turn the
 * later, more urgent one wins.
 */
export function warningTurns(maxTurns: number): Map<number, Stage> {
  const turns = new Map<number, Stage>();
  if (maxTurns < 2) return turns;
  if (maxTurns >= 4) {
    turns.set(Math.floor((maxTurns * 10) / 16), 'wrap-up');
    turns.set(Math.floor((maxTurns * 13) / 16), 'finish');
  }
  turns.set(maxTurns, 'last');
  for (const turn of turns.keys()) if (turn < 2) turns.delete(turn);
  return turns;
}

/** The warning for the request of `turn`, if it is one of the stages. */
export function turnWarning(turn: number, maxTurns: number): TurnWarning | undefined {
  const stage = warningTurns(maxTurns).get(turn);
  const left = maxTurns - turn;
  const of = `turn ${turn} of ${maxTurns}`;
  switch (stage) {
    case undefined:
      return undefined;
    case 'wrap-up':
      return {
        note: `[Keel: ${of}. Start wrapping up: finish the step you are on and don't start new work.]`,
        message: `${of}: asking the model to wrap up (${left} turns left)`,
      };
    case 'finish':
      return {
        note: `[Keel: ${of}, only ${left} left. Finish now: verify what you changed and give your final answer.]`,
        message: `${of}: asking the model to finish (${left} turns left)`,
      };
    case 'last':
      return {
        note: `[Keel: this is the last turn (${of}). Reply with your final answer now, without tool calls: say what is done and what is not.]`,
        message: `${of}: the last turn, asking the model for its final answer`,
      };
  }
}
