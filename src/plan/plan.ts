// The plan shape every plan file format parses to: a goal, optional context and instructions.

export interface PlanContextEntry {
  /** "Repository" in "Repository: /x"; absent for free text. */
  key?: string;
  value: string;
}

export interface Plan {
  title?: string;
  goal: string;
  context: PlanContextEntry[];
  instructions: string[];
  /** The file the plan was read from, as given. */
  file: string;
}
