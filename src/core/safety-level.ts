/** How much a tool can change: the policy's first input. */
export type SafetyLevel = 'safe' | 'caution' | 'dangerous';
