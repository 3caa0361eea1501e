// Compiled (never run) by scripts/check_typescript.sh against the types that json-schema-to-typescript
// generates from schemas/dist/: proves the exported JSON Schemas give usable TypeScript types.
import type {
  FunctionCallOutputParam,
  FunctionCallParam,
  InputItem,
  ItemReferenceParam,
  NamespacedItem,
  UserMessageParam,
} from "./gen/input";
import type { FunctionCall, Message, OutputItem } from "./gen/output";
import type { AgentsSessionEvent } from "./gen/agents-events";

const user: UserMessageParam = {
  type: "message",
  role: "user",
  content: [{ type: "input_text", text: "What is the weather in Paris?" }],
};
const call: FunctionCallParam = {
  type: "function_call",
  call_id: "call_1",
  name: "get_weather",
  arguments: '{"city":"Paris"}',
  status: "completed",
};
const answer: FunctionCallOutputParam = { type: "function_call_output", call_id: "call_1", output: "18C, sunny" };
const ref: ItemReferenceParam = { id: "msg_123" };
const extension: NamespacedItem = { type: "acme:search_result", id: "sr_1", hits: [1, 2] };
export const transcript: InputItem[] = [user, call, answer, ref, extension, { type: "message", role: "system", content: "Be brief." }];

export function callsOf(items: OutputItem[]): FunctionCall[] {
  return items.filter((i): i is FunctionCall => i.type === "function_call" && "call_id" in i);
}

export function textOf(message: Message): string {
  return message.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("");
}

export function eventType(event: AgentsSessionEvent): string {
  return event.type;
}

// @ts-expect-error arguments is a JSON string, never an object
export const badArguments: FunctionCallParam = { type: "function_call", call_id: "c", name: "f", arguments: { city: "Paris" } };
// @ts-expect-error status is in_progress, completed or incomplete
export const badStatus: FunctionCallParam = { type: "function_call", call_id: "c", name: "f", arguments: "{}", status: "done" };
// @ts-expect-error an output item always carries id and status
export const missingId: FunctionCall = { type: "function_call", call_id: "c", name: "f", arguments: "{}" };
