/** What each fixture must parse to: the facts of the recorded response, stated by hand. */
import type { OpenAICompatAdapterOptions } from "glove-core/models/openai-compat";

export interface ExpectedCall {
  id: string;
  name: string;
  input: unknown;
  extras?: Record<string, unknown>;
}

export interface Expected {
  options?: Partial<OpenAICompatAdapterOptions>;
  text: string;
  reasoning?: string;
  calls?: ExpectedCall[];
  refusal?: boolean;
  /** The message's own provider extras, merged over the stream. */
  messageExtras?: Record<string, unknown>;
  tokens_in: number;
  tokens_out: number;
  /** Undefined when the recording holds no finish_reason. */
  stop_reason: string | undefined;
}

const reasoning = { reasoning: true } as const;
const SIG = { extra_content: { google: { thought_signature: "EnEKbwERTTIP0Zk3tjLvi9mRksxP" } } };
const geminiCalls: ExpectedCall[] = [
  { id: "call_0", name: "get_current_temperature", input: { city: "Paris" }, extras: SIG },
  { id: "call_1", name: "get_current_temperature", input: { city: "London" } },
];
/** The two recorded parallel calls (openai-python's live snapshots): streamed, then whole. */
const openaiParallel: ExpectedCall[] = [
  {
    id: "call_lQnnsesjFMWMQ5IeWPHzR4th",
    name: "GetWeatherArgs",
    input: { city: "Edinburgh", country: "UK", units: "c" },
  },
  { id: "call_2xjOUgaCdiwAcl9ZBL9LyMUU", name: "get_stock_price", input: { ticker: "AAPL", exchange: "NASDAQ" } },
];
const openaiParallelWhole: ExpectedCall[] = [
  {
    id: "call_fdNz3vOBKYgOIpMdWotB9MjY",
    name: "GetWeatherArgs",
    input: { city: "Edinburgh", country: "GB", units: "c" },
  },
  { id: "call_h1DWI1POMJLb0KwIyQHWXD4p", name: "get_stock_price", input: { ticker: "AAPL", exchange: "NASDAQ" } },
];
/** Ollama's recorded parallel calls: each whole in one chunk, with its own index, no usage reported. */
export const OLLAMA_CALLS: ExpectedCall[] = [
  { id: "call_wteop8bt", name: "run_command", input: { command: "ls" } },
  { id: "call_rk2xye1l", name: "run_command", input: { command: "ls -l" } },
];
const REFUSAL = "I'm sorry, I cannot assist with that request.";
/** Refusals gpt-4o-2024-08-06 gave to a structured-output request (recorded, streamed and whole). */
export const RECORDED_REFUSAL = "I'm sorry, but I can't assist with that request.";
export const RECORDED_REFUSAL_WHOLE = "I'm very sorry, but I can't assist with that.";
/** Gemini 3's real signature from the recorded chunk (gemini-recorded-signed-call). */
export const RECORDED_GEMINI_SIGNATURE = "EjQKMgG+Pvb7s6anNtqTZtb1XVK5Rf2edMXJQpVr53xZCQ3+7yiWdGctjmyn1GLanJ+jMP9P";
/** Claude's reasoning through OpenRouter as one detail, joined from its streamed pieces. */
export const OPENROUTER_CLAUDE_DETAILS = [
  {
    type: "reasoning.text",
    text: "This is a simple arithmetic question. 2+2 equals 4.",
    signature:
      "Et0BCkgIChACGAIqQA2s7h7tA7IG35fbwVkou9PM2hANVJNUwcEM4q12fTRDK6y3v6YoEvJ+7bko8wnW/GLsQFXadaJPAEMCpLkhI9ISDLjFkeR1aVUIvdCtyBoMrUTovh0jwk+wpnZWIjANV3e6VVdgbGSsEyyTHO6KMmVtqqs79f9blnVdJmmMIwMyTi6bEtG59+jTU7v1zlsqQ2IKGZILOlr6adh0Aam7zYttvisys+wjyZZXU1y/Srz0nmp1cFgVOJe1BLKQI3SSRrjsqQC0uAEUZy0GX0Rq1AXjvIcYAQ==",
    format: "anthropic-claude-v1",
    index: 0,
  },
];

export const EXPECTED: Record<string, Expected> = {
  "openai-text": {
    text: "**Holiday Name:** Harmony Day\n\n respect.",
    tokens_in: 16,
    tokens_out: 300,
    stop_reason: "stop",
  },
  "openai-parallel-tools": {
    text: "",
    calls: openaiParallel,
    tokens_in: 149,
    tokens_out: 60,
    stop_reason: "tool_calls",
  },
  "openai-parallel-tools-whole": {
    text: "",
    calls: openaiParallelWhole,
    tokens_in: 149,
    tokens_out: 60,
    stop_reason: "tool_calls",
  },
  "openai-recorded-refusal": {
    text: RECORDED_REFUSAL,
    refusal: true,
    tokens_in: 17,
    tokens_out: 12,
    stop_reason: "stop",
  },
  "openai-recorded-refusal-whole": {
    text: RECORDED_REFUSAL_WHOLE,
    refusal: true,
    tokens_in: 79,
    tokens_out: 12,
    stop_reason: "stop",
  },
  // No usage in the recording: the adapter's estimate from the body and output sizes.
  "ollama-recorded-parallel-tools": {
    text: "",
    calls: OLLAMA_CALLS,
    tokens_in: 85,
    tokens_out: 15,
    stop_reason: "tool_calls",
  },
  "openai-refusal": { text: REFUSAL, refusal: true, tokens_in: 81, tokens_out: 11, stop_reason: "stop" },
  "openai-refusal-whole": { text: REFUSAL, refusal: true, tokens_in: 81, tokens_out: 11, stop_reason: "stop" },
  "openai-json-schema-whole": {
    text: '{"name":"Science Fair","date":"Friday","participants":["Alice","Bob"]}',
    tokens_in: 92,
    tokens_out: 17,
    stop_reason: "stop",
  },
  "gemini-parallel-signed": { text: "", calls: geminiCalls, tokens_in: 60, tokens_out: 30, stop_reason: "tool_calls" },
  "gemini-parallel-signed-whole": {
    text: "",
    calls: geminiCalls,
    tokens_in: 60,
    tokens_out: 30,
    stop_reason: "tool_calls",
  },
  "gemini-answer": { text: "Paris is 18°C and London is 14°C.", tokens_in: 120, tokens_out: 12, stop_reason: "stop" },
  "gemini-answer-whole": {
    text: "Paris is 18°C and London is 14°C.",
    tokens_in: 120,
    tokens_out: 12,
    stop_reason: "stop",
  },
  "deepseek-tool-call": {
    options: reasoning,
    text: "",
    reasoning: "The user asks about",
    calls: [{ id: "call_00_IhCAliIHtM9gKpgfqbBV9873", name: "weather", input: { location: "San Francisco" } }],
    tokens_in: 374,
    tokens_out: 61,
    stop_reason: "tool_calls",
  },
  "deepseek-tool-call-whole": {
    options: reasoning,
    text: "",
    reasoning: "The user asks about weather in San Francisco. I'll call the weather tool.",
    calls: [{ id: "call_00_lCIkdHRa7AKmCG3TlxXz1061", name: "weather", input: { location: "San Francisco" } }],
    tokens_in: 374,
    tokens_out: 60,
    stop_reason: "tool_calls",
  },
  "xai-tool-call-whole": {
    options: reasoning,
    text: "",
    reasoning:
      'First, the user is asking about the weather in San Francisco. I have a function available called "weather" that retrieves the weather for a given location.',
    calls: [{ id: "call_46427107", name: "weather", input: { location: "San Francisco" } }],
    tokens_in: 307,
    tokens_out: 26,
    stop_reason: "tool_calls",
  },
  "groq-text-whole": {
    text: 'I\'d like to introduce "Luminaria" - a joyous holiday that celebrates the magic of light, community, and personal growth. Luminaria is observed on the spring equinox, a time when day and night are equal in length, symbolizing balance and harmony.',
    tokens_in: 45,
    tokens_out: 607,
    stop_reason: "stop",
  },
  "groq-x-groq-usage": {
    text: '```json { "sentiment": "positive"}```',
    tokens_in: 244,
    tokens_out: 15,
    stop_reason: "stop",
  },
  "groq-tool-call": {
    text: "",
    calls: [{ id: "tk85n1k4m", name: "weather", input: {} }],
    tokens_in: 210,
    tokens_out: 15,
    stop_reason: "tool_calls",
  },
  "openrouter-reasoning": {
    options: reasoning,
    text: "I’m ChatGPT, a large-language-model assistant created by OpenAI. me know!",
    messageExtras: {
      reasoning_details: [
        {
          type: "reasoning.encrypted",
          data: "gAAAAABpCCSIBxdevbk-8QtJuf4C6mgqDwXaUXZGqXqKQRX62aYMAYCg7DbFt3-A3KE_tihu5b36YJmI6393LEIF7lTmdXSxaHgROpGQA6sDVpJHPzcfWvTv774-JhpsbKSxisRYKsPkR5SSsJMULqCQShe_ypqQokHmOw8xHW_9g6-LXfRvv24bGjWMN_Cf994O4EQH4ZtgHwlVweADjseXYi9ShekxcuLRiEHpL4FKcvm5tFmylbSovKuZcu1HTTPMDVcRCgn9D3c56KcHYJGm",
          id: "rs_0aa4f2c435e6d1dc0169082486816c8193a029b5fc4ef1764f",
          format: "openai-responses-v1",
          index: 0,
        },
      ],
    },
    tokens_in: 9,
    tokens_out: 104,
    stop_reason: "stop",
  },
  "openrouter-reasoning-whole": {
    options: reasoning,
    messageExtras: {
      reasoning_details: [
        {
          format: "openai-responses-v1",
          index: 0,
          summary:
            '**Greeting warmly**\n\nThe user just said "Hello!" and hasn\'t given more instructions. I want to respond in a friendly way, keeping it concise.',
          type: "reasoning.summary",
        },
        {
          data: "gAAAAABpgLmIevBdEjwSgfwNCSDor4xxeo4l4nA7Tw_0rbQU6mkoNJ6Uev1wnYGtuIN4tTScoQ-ZDgbHndTFiK_DTwilT633bysESoPwHSNeFtY8chmB51AWpQo-PUvmZ0-jWDP6SwbvDUfGz77nGezuxf0RJbuPl1b2qmYhL9BI7nY6EvzhtWqog-7t_ZIpBxg5xySSpNX2ZvZgU2LveTQXbaUW",
          format: "openai-responses-v1",
          id: "rs_0057196777a5a08c016980b98417e88194bc1390b670e8c4ba",
          index: 0,
          type: "reasoning.encrypted",
        },
      ],
    },
    text: "Hello! How can I help you today? (Ask a question, get writing or coding help, analyze an image, brainstorm ideas, translate text, or something else?)",
    reasoning:
      '**Greeting warmly**\n\nThe user just said "Hello!" and hasn\'t given more instructions. I want to respond in a friendly way, keeping it concise.',
    tokens_in: 8,
    tokens_out: 150,
    stop_reason: "stop",
  },
  "gemini-recorded-signed-call": {
    text: "",
    calls: [
      {
        id: "623rbkd0",
        name: "read",
        input: { filePath: "/home/rafael/Projects/git.0ur.uk/nenya/gateway.go" },
        extras: { extra_content: { google: { thought_signature: RECORDED_GEMINI_SIGNATURE } } },
      },
    ],
    tokens_in: 49292,
    tokens_out: 34,
    stop_reason: undefined,
  },
  "openrouter-claude-reasoning": {
    options: reasoning,
    text: "2 + 2 = 4",
    reasoning: "This is a simple arithmetic question. 2+2 equals 4.",
    messageExtras: { reasoning_details: OPENROUTER_CLAUDE_DETAILS },
    tokens_in: 43,
    tokens_out: 36,
    stop_reason: "stop",
  },
  "ollama-tool-call": {
    options: reasoning,
    text: "",
    reasoning: "The user wants Tokyo's weather.",
    calls: [{ id: "call_x1", name: "get_weather", input: { city: "Tokyo" } }],
    tokens_in: 169,
    tokens_out: 15,
    stop_reason: "tool_calls",
  },
};
