// Keel as a library: two runs of one conversation, a tool of our own, and our own answer to the policy's questions.
// Run it with `npm run build && node examples/sdk.mjs [workspace]`; the provider comes from the config and the
// environment as for the CLI (KEEL_PROVIDER, KEEL_MODEL, OLLAMA_HOST, API keys).
import { createAgent } from 'keel';

const agent = createAgent({
  cwd: process.argv[2] ?? process.cwd(),
  // interactive: every change is put to canUseTool first.
  mode: 'interactive',
  tools: [
    {
      name: 'word_count',
      description: 'Count the words of a text.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      safety: 'safe',
      run: ({ text }) => String(text.split(/\s+/).filter(Boolean).length),
    },
  ],
  // In place of the terminal's prompt: file writes yes, anything else no (the model reads why).
  canUseTool: (call) => {
    console.error(`asked: ${call.summary}`);
    return call.name === 'write_file' ? 'allow' : { decision: 'deny', feedback: 'only file writes here' };
  },
});

async function say(prompt) {
  for await (const event of agent.run(prompt)) {
    if (event.type === 'text_delta') process.stdout.write(event.delta);
    if (event.type === 'tool_call') console.error(`tool: ${event.name}`);
    if (event.type === 'run_end') process.stdout.write(`\n[${event.reason} after ${event.turns} turns]\n`);
  }
}

try {
  await say('Count the words of "the quick brown fox" and write the number to count.txt.');
  // The next run continues the same conversation.
  await say('What did you write, and where?');
  console.log(`session: ${agent.sessionId}`);
} finally {
  await agent.close();
}
