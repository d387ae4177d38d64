"""Jinja chat templates rendered the way transformers renders them (a sandboxed environment with
`trim_blocks`/`lstrip_blocks`, `raise_exception`, a `tojson` filter), for the byte tokenizer:
`--chat-template FILE` gives the tiny model a real template (Qwen-like, ChatML, ...), so the
tokens path is tested against the behaviours of real templates without weights.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Dict, List, Optional


def _raise(message: str) -> None:
    raise ValueError(f"chat template: {message}")


def _tojson(value: Any, indent: Optional[int] = None, ensure_ascii: bool = False, sort_keys: bool = False) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, sort_keys=sort_keys)


class ChatTemplate:
    """A compiled template; `render` returns the text (the tokenizer maps special-token strings)."""

    def __init__(self, source: str, bos_token: str = "", eos_token: str = "") -> None:
        try:
            from jinja2 import TemplateError
            from jinja2.sandbox import ImmutableSandboxedEnvironment
        except ImportError as error:  # Debian: python3-jinja2
            raise ValueError("a chat template needs jinja2 (Debian: apt-get install python3-jinja2)") from error
        env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
        env.filters["tojson"] = _tojson
        env.globals["raise_exception"] = _raise
        env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
        try:
            self.template = env.from_string(source)
        except TemplateError as error:
            raise ValueError(f"chat template does not compile: {error}") from None
        self.bos_token, self.eos_token = bos_token, eos_token

    @classmethod
    def from_file(cls, path: str, **tokens: str) -> "ChatTemplate":
        with open(path, encoding="utf-8") as handle:
            return cls(handle.read(), **tokens)

    def render(self, messages: List[Dict[str, Any]], tools: Optional[list] = None, add_generation_prompt: bool = False) -> str:
        from jinja2 import TemplateError

        try:
            return self.template.render(messages=messages, tools=tools or None, add_generation_prompt=add_generation_prompt,
                                        bos_token=self.bos_token, eos_token=self.eos_token)
        except TemplateError as error:
            raise ValueError(f"chat template failed: {error}") from None
