"""Tokenizers behind one small interface: the byte tokenizer of the tiny model (with its own minimal
chat template) and a wrapper around a Hugging Face tokenizer and its chat template.

Both render OpenAI-style messages as ssr's tokens policy sends them to `/tokenize`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence

from .chat_template import ChatTemplate

SPECIAL_TOKENS = ("<|bos|>", "<|eos|>", "<|im_start|>", "<|im_end|>", "<|pad|>")
BYTE_VOCAB = 256


def message_text(content: Any) -> str:
    """Message content as text: a string, or the text parts of an OpenAI content array."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    raise ValueError(f"message content must be a string or an array of parts, got {type(content).__name__}")


def normalise_messages(messages: Any) -> List[Dict[str, Any]]:
    """Validates chat messages and decodes tool-call arguments sent as JSON strings (as vLLM does:
    chat templates expect them as objects)."""
    if not isinstance(messages, list) or not messages:
        raise ValueError("'messages' must be a non-empty array")
    out = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise ValueError(f"messages[{i}] must be an object with a string 'role'")
        message = dict(message)
        message["content"] = message_text(message.get("content"))
        calls = message.get("tool_calls")
        if calls:
            decoded = []
            for call in calls:
                function = dict(call.get("function", {})) if isinstance(call, dict) else {}
                arguments = function.get("arguments")
                if isinstance(arguments, str):
                    try:
                        function["arguments"] = json.loads(arguments) if arguments.strip() else {}
                    except json.JSONDecodeError:
                        pass  # left as text: the template renders what the model wrote
                decoded.append({**call, "function": function})
            message["tool_calls"] = decoded
        out.append(message)
    return out


class ByteTokenizer:
    """UTF-8 bytes are tokens 0..255; a few specials follow. Lossless for any text.

    With a `chat_template` (a Jinja template, `--chat-template FILE`) chats are rendered by it and
    the special-token strings in the text become their ids; without one, the built-in minimal
    template below applies.
    """

    def __init__(self, chat_template: Optional[ChatTemplate] = None) -> None:
        self.chat_template = chat_template
        self._special_pattern = re.compile("(" + "|".join(re.escape(name) for name in SPECIAL_TOKENS) + ")")
        self.vocab_size = BYTE_VOCAB + len(SPECIAL_TOKENS)
        ids = {name: BYTE_VOCAB + i for i, name in enumerate(SPECIAL_TOKENS)}
        self.bos_id = ids["<|bos|>"]
        self.eos_id = ids["<|eos|>"]
        self.im_start_id = ids["<|im_start|>"]
        self.im_end_id = ids["<|im_end|>"]
        self.pad_id = ids["<|pad|>"]
        self.stop_ids = [self.im_end_id, self.eos_id]

    def encode(self, text: str) -> List[int]:
        return list(text.encode("utf-8"))

    def encode_with_specials(self, text: str) -> List[int]:
        """Bytes, except that a special token's string (`<|im_end|>`) is that token's id."""
        ids: List[int] = []
        for i, part in enumerate(self._special_pattern.split(text)):
            ids += [BYTE_VOCAB + SPECIAL_TOKENS.index(part)] if i % 2 else self.encode(part)
        return ids

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        out, run = [], bytearray()
        for token in ids:
            if 0 <= token < BYTE_VOCAB:
                run.append(token)
                continue
            out.append(run.decode("utf-8", errors="replace"))
            run = bytearray()
            if not skip_special_tokens:
                out.append(self.token_text(token))
        out.append(run.decode("utf-8", errors="replace"))
        return "".join(out)

    def token_text(self, token: int) -> str:
        if 0 <= token < BYTE_VOCAB:
            return bytes([token]).decode("utf-8", errors="replace")
        index = token - BYTE_VOCAB
        return SPECIAL_TOKENS[index] if 0 <= index < len(SPECIAL_TOKENS) else f"<|unk_{token}|>"

    def apply_chat_template(self, messages: Any, tools: Optional[list] = None, add_generation_prompt: bool = False) -> List[int]:
        """`<|bos|>` then per message `<|im_start|>{role}\\n{content}<|im_end|>`, nothing between
        messages: a sampled reply ends on `<|im_end|>`, so prompt + reply + the next messages'
        tokens is exactly what this template renders for the longer conversation."""
        messages = normalise_messages(messages)
        if self.chat_template is not None:
            return self.encode_with_specials(self.chat_template.render(messages, tools, add_generation_prompt))
        if tools:
            listing = "\n".join(json.dumps(tool, sort_keys=True, separators=(",", ":")) for tool in tools)
            note = "# Tools\nCall one tool per reply as <tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call>\n" + listing
            if messages[0]["role"] == "system":
                messages[0] = {**messages[0], "content": messages[0]["content"] + "\n\n" + note}
            else:
                messages.insert(0, {"role": "system", "content": note})
        ids = [self.bos_id]
        for message in messages:
            text = message["content"]
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                payload = {"name": function.get("name"), "arguments": function.get("arguments", {})}
                text += "\n<tool_call>" + json.dumps(payload, ensure_ascii=False) + "</tool_call>"
            ids += [self.im_start_id, *self.encode(f"{message['role']}\n{text}"), self.im_end_id]
        if add_generation_prompt:
            ids += [self.im_start_id, *self.encode("assistant\n")]
        return ids


class HFTokenizer:
    """A transformers tokenizer behind the ByteTokenizer interface; its chat template decides."""

    def __init__(self, tokenizer: Any, extra_stop_ids: Sequence[int] = ()) -> None:
        self.inner = tokenizer
        self.vocab_size = len(tokenizer)
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else (tokenizer.eos_token_id or 0)
        stops = [tokenizer.eos_token_id] if tokenizer.eos_token_id is not None else []
        self.stop_ids = sorted({*stops, *extra_stop_ids})

    def encode(self, text: str) -> List[int]:
        return self.inner.encode(text, add_special_tokens=False)

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        return self.inner.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def token_text(self, token: int) -> str:
        return self.inner.convert_ids_to_tokens(int(token)) or ""

    def apply_chat_template(self, messages: Any, tools: Optional[list] = None, add_generation_prompt: bool = False) -> List[int]:
        kwargs: Dict[str, Any] = {"add_generation_prompt": add_generation_prompt, "tokenize": True}
        if tools:
            kwargs["tools"] = tools
        out = self.inner.apply_chat_template(normalise_messages(messages), **kwargs)
        # transformers 5 returns a BatchEncoding by default, 4.x a list of ids.
        if hasattr(out, "keys") and "input_ids" in out:
            out = out["input_ids"]
        return [int(token) for token in out]
