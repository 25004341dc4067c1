// The model's question to the user (the ask_user tool) and how an entry point answers it: the chat shows a prompt
// with the options to choose from; ACP and the library map it to their clients; headless runs have no one to ask.

export interface UserQuestion {
  /** The tool call's id. */
  id: string;
  question: string;
  /** Answers to choose from; the user may still type another. */
  options?: string[];
}

/** Asks the user and resolves with their answer (an option's text, or what they typed); rejects when aborted. */
export type AskUser = (question: UserQuestion, signal: AbortSignal) => Promise<string>;

/** What the model reads when nobody can answer (a headless run). */
export const NO_USER_ANSWER = 'no user is available: choose the most reasonable option and say which';
